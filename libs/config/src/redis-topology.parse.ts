import type { EnvironmentReader } from './environment-reader';
import type { RedisNodeAddress, RedisTopology } from './gateway-config';

const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const HOST_AND_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;
// Key-safe characters, with at most one hash tag `{…}` (Redis Cluster hashes only what is inside it).
const PREFIX_CHARACTERS = '[A-Za-z0-9_.:-]';
const REDIS_PREFIX = new RegExp(`^${PREFIX_CHARACTERS}*(\\{${PREFIX_CHARACTERS}+\\})?${PREFIX_CHARACTERS}*$`);

/**
 * Which Redis the processes talk to: one server (REDIS_URL, the default), a Redis Cluster
 * (REDIS_CLUSTER_NODES: seed nodes, the client discovers the rest) or a primary watched by Sentinels
 * (REDIS_SENTINELS with REDIS_SENTINEL_MASTER). Cluster and Sentinel take their credentials and TLS
 * from REDIS_USERNAME, REDIS_PASSWORD and REDIS_TLS, since they have no single URL to carry them.
 */
export function parseRedisTopology(reader: EnvironmentReader): RedisTopology {
  const clusterNodes = readNodes(reader, 'REDIS_CLUSTER_NODES');
  const sentinels = readNodes(reader, 'REDIS_SENTINELS');
  if (clusterNodes.length > 0 && sentinels.length > 0) {
    reader.addProblem('REDIS_CLUSTER_NODES and REDIS_SENTINELS are exclusive: set one of them');
  }
  if (clusterNodes.length === 0 && sentinels.length === 0) {
    return { kind: 'single', url: reader.url('REDIS_URL', DEFAULT_REDIS_URL, ['redis:', 'rediss:']) };
  }
  if (reader.raw('REDIS_URL') !== undefined) {
    reader.addProblem('REDIS_URL must be unset when REDIS_CLUSTER_NODES or REDIS_SENTINELS is set');
  }
  const credentials = {
    username: reader.raw('REDIS_USERNAME'),
    password: reader.raw('REDIS_PASSWORD'),
    tls: reader.boolean('REDIS_TLS', false),
  };
  if (clusterNodes.length > 0) return { kind: 'cluster', nodes: clusterNodes, ...credentials };
  const masterName = reader.raw('REDIS_SENTINEL_MASTER');
  if (masterName === undefined) {
    reader.addProblem(
      'REDIS_SENTINEL_MASTER is required with REDIS_SENTINELS: the name the Sentinels monitor',
    );
  }
  return {
    kind: 'sentinel',
    sentinels,
    masterName: masterName ?? '',
    sentinelPassword: reader.raw('REDIS_SENTINEL_PASSWORD'),
    ...credentials,
  };
}

/**
 * REDIS_PREFIX, which starts every key and pub/sub channel name: at most one hash tag `{…}`, which an
 * operator rarely needs (it would put every key of the deployment in one cluster slot).
 */
export function readRedisPrefix(reader: EnvironmentReader): string {
  const prefix = reader.string('REDIS_PREFIX', 'gw');
  if (prefix.length > 64 || !REDIS_PREFIX.test(prefix)) {
    reader.addProblem(
      `REDIS_PREFIX must be 1 to 64 characters of A-Z a-z 0-9 _ . : - with at most one {hash tag} (got "${prefix}")`,
    );
  }
  return prefix;
}

/**
 * BullMQ's prefix. A queue's scripts touch many of its keys at once, and jobs move between queues, so
 * on a cluster every queue key must hash to one slot: the prefix is wrapped whole in a hash tag
 * (`gw` → `{gw}`) unless it carries one. The gateway's own keys keep the plain prefix and tag what
 * each script touches together (an account's limit counters, the circuit state), so that they spread
 * over the cluster's primaries. One server or Sentinel: the prefix as it is.
 */
export function queuePrefixOf(redisPrefix: string, topology: RedisTopology): string {
  if (topology.kind === 'cluster' && !redisPrefix.includes('{')) return `{${redisPrefix}}`;
  return redisPrefix;
}

function readNodes(reader: EnvironmentReader, name: string): RedisNodeAddress[] {
  const nodes: RedisNodeAddress[] = [];
  for (const entry of reader.list(name)) {
    const match = HOST_AND_PORT.exec(entry);
    const port = match ? Number(match[2]) : 0;
    if (!match || port < 1 || port > 65535) {
      reader.addProblem(`${name} entry "${entry}" must be host:port`);
      continue;
    }
    nodes.push({ host: match[1].replace(/^\[|\]$/g, ''), port });
  }
  return nodes;
}
