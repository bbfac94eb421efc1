import type { RedisTopology } from '@gateway/config';
import Redis, { Cluster, type ClusterOptions, type RedisOptions } from 'ioredis';

/**
 * A connection to the deployment's Redis, whatever its topology. Both kinds take the same commands,
 * scripts and pub/sub calls; on a cluster, a command's keys must share a hash slot (the configured
 * prefix carries a hash tag there: see readRedisPrefix of @gateway/config).
 */
export type RedisConnection = Redis | Cluster;

export interface RedisConnectionOptions {
  /** Shown in Redis's CLIENT LIST (operators and fault tests find the process's connections by it). */
  connectionName?: string;
  /**
   * null (the default): a command waits through an outage until Redis is back. BullMQ's workers
   * require it; callers that must not wait check the connection's status before sending.
   */
  maxRetriesPerRequest?: number | null;
  /** Connect on the first command instead of at once. */
  lazyConnect?: boolean;
}

/** How long a cluster client waits before asking again for the slot map while the cluster is down. */
const CLUSTER_DOWN_RETRY_MS = 200;

/**
 * Every Redis client of the gateway and the workers is built here, so that the topology is chosen
 * in one place: one server from REDIS_URL, a Cluster from REDIS_CLUSTER_NODES, or the primary that
 * the Sentinels of REDIS_SENTINELS name.
 */
export function createRedisConnection(
  topology: RedisTopology,
  options: RedisConnectionOptions = {},
): RedisConnection {
  const common: RedisOptions = {
    connectionName: options.connectionName,
    maxRetriesPerRequest: options.maxRetriesPerRequest === undefined ? null : options.maxRetriesPerRequest,
    lazyConnect: options.lazyConnect,
  };
  switch (topology.kind) {
    case 'single':
      return new Redis(topology.url, common);
    case 'cluster':
      return new Cluster(
        topology.nodes.map((node) => ({ host: node.host, port: node.port })),
        clusterOptions(topology, common),
      );
    case 'sentinel':
      return new Redis({
        ...common,
        sentinels: topology.sentinels.map((node) => ({ host: node.host, port: node.port })),
        name: topology.masterName,
        role: 'master',
        username: topology.username,
        password: topology.password,
        sentinelPassword: topology.sentinelPassword,
        tls: topology.tls ? {} : undefined,
        // TLS to the Sentinels too when the data nodes use it: managed offerings serve both alike.
        enableTLSForSentinelMode: topology.tls,
      });
  }
}

function clusterOptions(
  topology: Extract<RedisTopology, { kind: 'cluster' }>,
  common: RedisOptions,
): ClusterOptions {
  return {
    redisOptions: {
      ...common,
      username: topology.username,
      password: topology.password,
      tls: topology.tls ? {} : undefined,
    },
    lazyConnect: common.lazyConnect,
    // Writes and scripts go to primaries only: a replica may lag, and BullMQ's scripts write.
    scaleReads: 'master',
    retryDelayOnClusterDown: CLUSTER_DOWN_RETRY_MS,
    retryDelayOnFailover: CLUSTER_DOWN_RETRY_MS,
    // A failover (a replica promoted after the cluster's node timeout) is retried, not reported.
    maxRedirections: 64,
  };
}
