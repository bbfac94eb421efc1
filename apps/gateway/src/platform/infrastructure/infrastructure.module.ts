import { hostname } from 'node:os';
import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Pool } from 'pg';
import type { DestinationStream, Logger } from 'pino';
import { AuthFailureThrottle, KeyResolver, keyInvalidationChannel, pgKeyRowSource } from '@gateway/auth';
import {
  GovernanceReservations,
  HoldLeases,
  HoldService,
  PriceBook,
  SettlementService,
} from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import { createPgPool } from '@gateway/db/pg-pool';
import {
  createMetrics,
  createLogger,
  logConnectionErrors,
  SettlementMetrics,
  type GatewayMetrics,
} from '@gateway/observability';
import { createSafeFetcher, createUndiciHttpClient, systemClock, type Clock } from '@gateway/providers-core';
import { createObjectStore } from '@gateway/storage';
import { createRedisConnection, type RedisConnection } from '@gateway/redis';
import { ChannelCatalog, channelChangesChannel, CircuitBreaker, pgChannelRowSource } from '@gateway/routing';
import { QUEUE_NAMES } from '@gateway/tasks/queues';
import { GovernanceFigures } from '../../governance/governance-figures.service';
import { GovernanceRefusalLog } from '../../governance/governance-refusal-log';
import { GovernanceSweep } from '../../governance/governance-sweep';
import { KeyGovernanceService } from '../../governance/key-governance.service';
import { RedisLimiter } from '../../governance/redis-limiter';
import { REQUEST_GOVERNANCE } from '../../pipeline/request-governance';
import { LazyQueue } from './lazy-queue';
import { MetricsSources } from './metrics-sources';
import { PriceSync } from './price-sync.service';
import {
  CONFIG,
  LOGGER,
  METRICS,
  MONEY_PG_POOL,
  OBJECT_STORE,
  PG_POOL,
  REDIS,
  REDIS_SUBSCRIBER,
  SAFE_FETCHER,
  SETTLEMENT_QUEUE,
  UPSTREAM_HTTP,
} from './tokens';

export interface InfrastructureOptions {
  /** Where log lines go; standard output when absent (tests read them back). */
  logDestination?: DestinationStream;
  /** The clock of key and account governance (minute windows, budget periods); tests inject one. */
  clock?: Clock;
}

const CHANNEL_REFRESH_MS = 30_000;
/** Every open stream holds one upstream connection: enough for thousands of concurrent streams. */
const UPSTREAM_CONNECTIONS_PER_ORIGIN = 4096;
/** Redirects the SSRF-safe fetcher follows, each hop checked again. */
const SAFE_FETCH_MAX_REDIRECTS = 3;
/** Governance (docs/governance.md): how long an in-flight lease outlives a dead instance at most. */
const CONCURRENCY_LEASE_MS = 10 * 60_000;
const GOVERNANCE_REDIS_TIMEOUT_MS = 250;
const REQUEST_RESERVATION_MS = 60 * 60_000;
const TASK_RESERVATION_MS = 7 * 24 * 60 * 60_000;
const GOVERNANCE_SWEEP_INTERVAL_MS = 60_000;

/**
 * Connections and the long-lived services built on them. One pg pool serves the serving path's
 * statements (and the admin API's Prisma client, see AdminModule), another the money writes; one
 * Redis connection serves commands and BullMQ producers; one more subscribes.
 */
@Global()
@Module({})
export class InfrastructureModule implements OnApplicationShutdown {
  static forConfig(config: GatewayConfig, options: InfrastructureOptions = {}) {
    return {
      module: InfrastructureModule,
      providers: [
        { provide: CONFIG, useValue: config },
        {
          provide: LOGGER,
          useFactory: () =>
            createLogger({ level: config.logLevel, name: 'gateway', destination: options.logDestination }),
        },
        { provide: METRICS, useFactory: () => createMetrics() },
        {
          provide: PG_POOL,
          inject: [LOGGER],
          useFactory: (logger: Logger) =>
            logConnectionErrors(
              createPgPool(config.databaseUrl, config.databasePoolSize, {
                transactionPooler: config.databaseBehindTransactionPooler,
              }),
              logger,
              'postgres',
              'serving',
            ),
        },
        {
          provide: MONEY_PG_POOL,
          inject: [LOGGER],
          useFactory: (logger: Logger) =>
            logConnectionErrors(
              createPgPool(config.databaseUrl, config.databasePoolSize, {
                asynchronousCommit: true,
                transactionPooler: config.databaseBehindTransactionPooler,
              }),
              logger,
              'postgres',
              'money',
            ),
        },
        {
          provide: REDIS,
          inject: [LOGGER],
          useFactory: (logger: Logger) =>
            logConnectionErrors(createRedisConnection(config.redis), logger, 'redis', 'commands'),
        },
        {
          provide: REDIS_SUBSCRIBER,
          inject: [LOGGER],
          useFactory: (logger: Logger) =>
            logConnectionErrors(createRedisConnection(config.redis), logger, 'redis', 'subscriber'),
        },
        {
          provide: UPSTREAM_HTTP,
          useFactory: () =>
            createUndiciHttpClient({
              headersTimeoutMs: config.upstreamHeadersTimeoutMs,
              connectionsPerOrigin: UPSTREAM_CONNECTIONS_PER_ORIGIN,
            }),
        },
        {
          provide: SAFE_FETCHER,
          useFactory: () =>
            createSafeFetcher({
              allowPrivateHosts: config.ssrfAllowHosts,
              maxBytes: config.safeFetchMaxBytes,
              timeoutMs: config.safeFetchTimeoutMs,
              maxRedirects: SAFE_FETCH_MAX_REDIRECTS,
            }),
        },
        { provide: OBJECT_STORE, useFactory: () => createObjectStore(config.objectStore) },
        {
          provide: SETTLEMENT_QUEUE,
          inject: [REDIS, LOGGER],
          useFactory: (redis: RedisConnection, logger: Logger) =>
            new LazyQueue(QUEUE_NAMES.textSettlement, redis, config.queuePrefix, logger),
        },
        {
          provide: KeyResolver,
          inject: [PG_POOL, REDIS_SUBSCRIBER, REDIS],
          useFactory: (pool: Pool, subscriber: RedisConnection, publisher: RedisConnection) =>
            new KeyResolver(pgKeyRowSource(pool), subscriber, publisher, {
              ttlMs: config.keyCacheTtlMs,
              unknownTtlMs: config.keyCacheUnknownTtlMs,
              channelName: keyInvalidationChannel(config.redisPrefix),
            }),
        },
        {
          provide: AuthFailureThrottle,
          inject: [REDIS, LOGGER],
          useFactory: (redis: RedisConnection, logger: Logger) =>
            new AuthFailureThrottle(redis, {
              prefix: config.redisPrefix,
              limit: config.authFailureLimit,
              windowMs: config.authFailureWindowMs,
              logger,
            }),
        },
        {
          provide: ChannelCatalog,
          inject: [PG_POOL, REDIS_SUBSCRIBER, REDIS, LOGGER],
          useFactory: (pool: Pool, subscriber: RedisConnection, publisher: RedisConnection, logger: Logger) =>
            new ChannelCatalog(pgChannelRowSource(pool), subscriber, publisher, {
              keyring: config.masterKeys.keys,
              channelName: channelChangesChannel(config.redisPrefix),
              refreshIntervalMs: CHANNEL_REFRESH_MS,
              logger,
            }),
        },
        {
          provide: CircuitBreaker,
          inject: [REDIS, REDIS_SUBSCRIBER, LOGGER],
          useFactory: (redis: RedisConnection, subscriber: RedisConnection, logger: Logger) =>
            new CircuitBreaker(redis, subscriber, {
              prefix: config.redisPrefix,
              failureThreshold: config.circuitFailureThreshold,
              windowMs: config.circuitWindowMs,
              cooldownMs: config.circuitCooldownMs,
              logger,
            }),
        },
        { provide: PriceBook, inject: [PG_POOL], useFactory: (pool: Pool) => new PriceBook(pool) },
        PriceSync,
        { provide: HoldService, inject: [MONEY_PG_POOL], useFactory: (pool: Pool) => new HoldService(pool) },
        {
          provide: HoldLeases,
          inject: [MONEY_PG_POOL, HoldService, LOGGER],
          useFactory: (pool: Pool, holds: HoldService, logger: Logger) => {
            const leases = new HoldLeases(pool, holds, {
              holdsAhead: config.leaseHoldsAhead,
              idleMs: config.leaseIdleMs,
              ttlMs: config.leaseTtlMs,
              owner: `${hostname()}:${process.pid}`,
              onError: (error, what) => logger.warn({ err: error }, `${what} failed`),
            });
            leases.start();
            return leases;
          },
        },
        {
          provide: SettlementService,
          inject: [MONEY_PG_POOL, METRICS],
          useFactory: (pool: Pool, metrics: GatewayMetrics) =>
            new SettlementService(pool, new SettlementMetrics(metrics)),
        },
        MetricsSources,
        // The pipeline's admission seam (issue 32 part B): limits, budgets, allow-lists.
        ...governanceProviders(config, options.clock ?? systemClock),
      ],
      exports: [
        PriceSync,
        CONFIG,
        LOGGER,
        METRICS,
        PG_POOL,
        REDIS,
        REDIS_SUBSCRIBER,
        UPSTREAM_HTTP,
        SAFE_FETCHER,
        OBJECT_STORE,
        SETTLEMENT_QUEUE,
        KeyResolver,
        AuthFailureThrottle,
        ChannelCatalog,
        CircuitBreaker,
        PriceBook,
        HoldService,
        HoldLeases,
        SettlementService,
        REQUEST_GOVERNANCE,
        GovernanceReservations,
        RedisLimiter,
        GovernanceRefusalLog,
        GovernanceFigures,
      ],
    };
  }

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(MONEY_PG_POOL) private readonly moneyPool: Pool,
    @Inject(REDIS) private readonly redis: RedisConnection,
    @Inject(REDIS_SUBSCRIBER) private readonly subscriber: RedisConnection,
    @Inject(SETTLEMENT_QUEUE) private readonly settlementQueue: LazyQueue,
    @Inject(UPSTREAM_HTTP) private readonly http: { close(): Promise<void> },
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Runs after every other provider's shutdown hook: connections close last. */
  async onApplicationShutdown(): Promise<void> {
    await this.settlementQueue.close();
    await this.http.close();
    await Promise.all([this.pool.end(), this.moneyPool.end()]);
    this.subscriber.disconnect();
    await this.redis.quit();
    this.logger.info('connections closed');
  }
}

/** Limits, budgets and allow-lists of keys and accounts (docs/governance.md). */
function governanceProviders(config: GatewayConfig, clock: Clock) {
  return [
    {
      provide: GovernanceReservations,
      inject: [MONEY_PG_POOL],
      useFactory: (pool: Pool) => new GovernanceReservations(pool),
    },
    {
      provide: RedisLimiter,
      inject: [REDIS, LOGGER],
      useFactory: (redis: RedisConnection, logger: Logger) =>
        new RedisLimiter(redis, {
          prefix: config.redisPrefix,
          leaseMs: CONCURRENCY_LEASE_MS,
          timeoutMs: GOVERNANCE_REDIS_TIMEOUT_MS,
          clock,
          // Slots expire on their own (CONCURRENCY_LEASE_MS); the token counts stay as they were.
          onChangesFailed: (accountId, reason) =>
            logger.warn({ accountId, reason }, 'rate-limit changes not sent'),
        }),
    },
    {
      provide: GovernanceRefusalLog,
      inject: [SettlementService, METRICS, LOGGER],
      useFactory: (settlements: SettlementService, metrics: GatewayMetrics, logger: Logger) =>
        new GovernanceRefusalLog(settlements, metrics, logger),
    },
    {
      provide: GovernanceFigures,
      inject: [RedisLimiter, GovernanceReservations],
      useFactory: (limiter: RedisLimiter, reservations: GovernanceReservations) =>
        new GovernanceFigures(limiter, reservations, clock),
    },
    {
      provide: GovernanceSweep,
      inject: [GovernanceReservations, LOGGER],
      useFactory: (reservations: GovernanceReservations, logger: Logger) => {
        const sweep = new GovernanceSweep(reservations, clock, logger, GOVERNANCE_SWEEP_INTERVAL_MS);
        sweep.start();
        return sweep;
      },
    },
    {
      provide: REQUEST_GOVERNANCE,
      inject: [RedisLimiter, GovernanceReservations, GovernanceRefusalLog, METRICS, LOGGER],
      useFactory: (
        limiter: RedisLimiter,
        reservations: GovernanceReservations,
        refusals: GovernanceRefusalLog,
        metrics: GatewayMetrics,
        logger: Logger,
      ) =>
        new KeyGovernanceService(limiter, reservations, refusals, metrics, logger, {
          clock,
          requestReservationMs: REQUEST_RESERVATION_MS,
          taskReservationMs: TASK_RESERVATION_MS,
          concurrencyRetryAfterMs: 1000,
          taskRetryAfterMs: 5000,
        }),
    },
  ];
}
