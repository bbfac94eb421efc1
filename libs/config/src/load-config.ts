import { parseClientConnections } from './client-connections.parse';
import { parseConsoleConfig } from './console-config.parse';
import { EnvironmentReader, type Environment } from './environment-reader';
import { LOG_LEVELS, type GatewayConfig } from './gateway-config';
import { InvalidConfigurationError } from './invalid-configuration.error';
import { parseMasterKeyring } from './master-keyring.parse';
import { parseObjectStoreConfig } from './object-store-config.parse';
import { parseRedisTopology, queuePrefixOf, readRedisPrefix } from './redis-topology.parse';
import { refuseRemovedSettings } from './removed-settings';
import { parseTaskEventStreams } from './task-event-streams.parse';
import { parseRollupRetention } from './rollup-retention.parse';
import { parseTaskRetention } from './task-retention.parse';
import { parseVideoTaskDeadlines } from './video-task-deadlines.parse';
import { parseWebhookSettings } from './webhook-settings.parse';

const MIN_ADMIN_TOKEN_LENGTH = 16;
// Hostnames, IPv4/IPv6 addresses and CIDR ranges, optionally with a leading `*.` wildcard.
const ALLOW_HOST_ENTRY = /^(\*\.)?[a-z0-9.:\-[\]/]+$/;

/**
 * Parses and validates the environment once at boot. Throws one InvalidConfigurationError listing
 * every problem, so the process fails fast with a message an operator can act on.
 */
export function loadConfig(env: Environment = process.env): GatewayConfig {
  const reader = new EnvironmentReader(env);
  refuseRemovedSettings(reader);
  const adminApiEnabled = reader.boolean('ADMIN_API_ENABLED', true);
  const redis = parseRedisTopology(reader);
  const databaseUrl = reader.url('DATABASE_URL', 'postgresql://postgres@127.0.0.1:5432/gateway', [
    'postgresql:',
    'postgres:',
  ]);
  const databaseDirectUrl = reader.raw('DATABASE_DIRECT_URL');
  const redisPrefix = readRedisPrefix(reader);

  const config: GatewayConfig = {
    port: reader.integer('PORT', 8080, { min: 0, max: 65535 }),
    host: reader.string('HOST', '0.0.0.0'),
    databaseUrl,
    databaseDirectUrl: reader.url('DATABASE_DIRECT_URL', databaseUrl, ['postgresql:', 'postgres:']),
    databaseBehindTransactionPooler: databaseDirectUrl !== undefined,
    databasePoolSize: reader.integer('DATABASE_POOL_SIZE', 10, { min: 1, max: 1000 }),
    redisUrl: redis.kind === 'single' ? redis.url : 'redis://127.0.0.1:6379',
    redis,
    redisPrefix,
    queuePrefix: queuePrefixOf(redisPrefix, redis),
    adminApiEnabled,
    // A replica without the admin API has no use for the admin secret, so it need not hold one.
    adminToken: adminApiEnabled
      ? reader.secret(
          'ADMIN_TOKEN',
          (value) => value.length >= MIN_ADMIN_TOKEN_LENGTH,
          `must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters`,
        )
      : '',
    masterKeys: parseMasterKeyring(reader),
    jsonBodyLimitBytes: reader.integer('JSON_BODY_LIMIT_BYTES', 20 * 1024 * 1024, { min: 1024 }),
    logLevel: reader.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    keyCacheTtlMs: reader.integer('KEY_CACHE_TTL_MS', 5000, { min: 0 }),
    keyCacheUnknownTtlMs: reader.integer('KEY_CACHE_UNKNOWN_TTL_MS', 1000, { min: 0, max: 60_000 }),
    clientConnections: parseClientConnections(reader),
    authFailureLimit: reader.integer('AUTH_FAILURE_LIMIT', 50, { min: 0 }),
    authFailureWindowMs: reader.integer('AUTH_FAILURE_WINDOW_MS', 60_000, { min: 1000 }),
    upstreamHeadersTimeoutMs: reader.integer('UPSTREAM_HEADERS_TIMEOUT_MS', 60_000, { min: 1 }),
    maxAttempts: reader.integer('MAX_ATTEMPTS', 3, { min: 1, max: 10 }),
    circuitFailureThreshold: reader.integer('CIRCUIT_FAILURE_THRESHOLD', 5, { min: 1 }),
    circuitWindowMs: reader.integer('CIRCUIT_WINDOW_MS', 30_000, { min: 1 }),
    circuitCooldownMs: reader.integer('CIRCUIT_COOLDOWN_MS', 15_000, { min: 1 }),
    shutdownGraceMs: reader.integer('SHUTDOWN_GRACE_MS', 10_000, { min: 0 }),
    holdTtlMs: reader.integer('HOLD_TTL_MS', 600_000, { min: 1000 }),
    leaseHoldsAhead: reader.integer('LEASE_HOLDS_AHEAD', 32, { min: 0, max: 10_000 }),
    leaseIdleMs: reader.integer('LEASE_IDLE_MS', 2_000, { min: 100 }),
    leaseTtlMs: reader.integer('LEASE_TTL_MS', 60_000, { min: 4_000 }),
    ssrfAllowHosts: readAllowHosts(reader),
    safeFetchMaxBytes: reader.integer('SAFE_FETCH_MAX_BYTES', 50 * 1024 * 1024, { min: 1024 }),
    safeFetchTimeoutMs: reader.integer('SAFE_FETCH_TIMEOUT_MS', 30_000, { min: 100 }),
    imageTaskTimeoutMs: reader.integer('IMAGE_TASK_TIMEOUT_MS', 120_000, { min: 1_000 }),
    imageTaskPollIntervalMs: reader.integer('IMAGE_TASK_POLL_INTERVAL_MS', 1_000, { min: 10 }),
    videoTaskDeadlines: parseVideoTaskDeadlines(reader),
    taskSubmitAtCreateMs: reader.integer('TASK_SUBMIT_AT_CREATE_MS', 0, { min: 0, max: 60_000 }),
    metricsEnabled: reader.boolean('METRICS_ENABLED', true),
    heapGrowingPercent: reader.integer('HEAP_GROWING_PERCENT', 30, { min: 0, max: 300 }),
    heapPretenuring: reader.boolean('HEAP_PRETENURING', false),
    publicBaseUrl: readPublicBaseUrl(reader),
    objectStore: parseObjectStoreConfig(reader),
    objectSweepIntervalMs: reader.integer('OBJECT_SWEEP_INTERVAL_MS', 900_000, { min: 1_000 }),
    taskRetention: parseTaskRetention(reader),
    rollupRetention: parseRollupRetention(reader),
    webhooks: parseWebhookSettings(reader),
    console: parseConsoleConfig(reader, adminApiEnabled),
    taskEvents: parseTaskEventStreams(reader),
  };

  if (reader.problems.length > 0) throw new InvalidConfigurationError(reader.problems);
  return Object.freeze(config);
}

function readAllowHosts(reader: EnvironmentReader): string[] {
  const hosts = reader.list('SSRF_ALLOW_HOSTS').map((host) => host.toLowerCase());
  for (const host of hosts) {
    if (!ALLOW_HOST_ENTRY.test(host)) {
      reader.addProblem(`SSRF_ALLOW_HOSTS entry "${host}" is not a hostname, address or CIDR range`);
    }
  }
  return hosts;
}

/** An http(s) origin with an optional path; a trailing slash is dropped so callers can append `/path`. */
function readPublicBaseUrl(reader: EnvironmentReader): string | undefined {
  const value = reader.raw('PUBLIC_BASE_URL');
  if (value === undefined) return undefined;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const usable =
    url !== undefined &&
    ['http:', 'https:'].includes(url.protocol) &&
    !url.username &&
    !url.password &&
    !url.search &&
    !url.hash;
  if (!usable) {
    // Not echoed: a mistyped value might carry credentials.
    reader.addProblem(
      'PUBLIC_BASE_URL must be an http:// or https:// URL without credentials, query or fragment',
    );
    return undefined;
  }
  return url.href.replace(/\/+$/, '');
}
