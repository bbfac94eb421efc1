import { hostname } from 'node:os';
import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import type { Pool } from 'pg';
import type { DestinationStream, Logger } from 'pino';
import { AuthFailureThrottle, KeyResolver, keyInvalidationChannel, pgKeyRowSource } from '@gateway/auth';
import { HoldLeases, HoldService, PriceBook, SettlementService } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import { createPgPool } from '@gateway/db/pg-pool';
import { createMetrics, createLogger, logConnectionErrors } from '@gateway/observability';
import { createSafeFetcher, createUndiciHttpClient } from '@gateway/providers-core';
import { createObjectStore } from '@gateway/storage';
import { ChannelCatalog, channelChangesChannel, CircuitBreaker, pgChannelRowSource } from '@gateway/routing';
import { QUEUE_NAMES } from '@gateway/tasks/queues';
import { LazyQueue } from './lazy-queue';
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
}

const CHANNEL_REFRESH_MS = 30_000;
/** Every open stream holds one upstream connection: enough for thousands of concurrent streams. */
const UPSTREAM_CONNECTIONS_PER_ORIGIN = 4096;
/** Redirects the SSRF-safe fetcher follows, each hop checked again. */
const SAFE_FETCH_MAX_REDIRECTS = 3;

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
              createPgPool(config.databaseUrl, config.databasePoolSize),
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
              createPgPool(config.databaseUrl, config.databasePoolSize, { asynchronousCommit: true }),
              logger,
              'postgres',
              'money',
            ),
        },
        {
          provide: REDIS,
          inject: [LOGGER],
          useFactory: (logger: Logger) =>
            logConnectionErrors(
              new Redis(config.redisUrl, { maxRetriesPerRequest: null }),
              logger,
              'redis',
              'commands',
            ),
        },
        {
          provide: REDIS_SUBSCRIBER,
          inject: [LOGGER],
          useFactory: (logger: Logger) =>
            logConnectionErrors(
              new Redis(config.redisUrl, { maxRetriesPerRequest: null }),
              logger,
              'redis',
              'subscriber',
            ),
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
          useFactory: (redis: Redis, logger: Logger) =>
            new LazyQueue(QUEUE_NAMES.textSettlement, redis, config.redisPrefix, logger),
        },
        {
          provide: KeyResolver,
          inject: [PG_POOL, REDIS_SUBSCRIBER, REDIS],
          useFactory: (pool: Pool, subscriber: Redis, publisher: Redis) =>
            new KeyResolver(pgKeyRowSource(pool), subscriber, publisher, {
              ttlMs: config.keyCacheTtlMs,
              unknownTtlMs: config.keyCacheUnknownTtlMs,
              channelName: keyInvalidationChannel(config.redisPrefix),
            }),
        },
        {
          provide: AuthFailureThrottle,
          inject: [REDIS, LOGGER],
          useFactory: (redis: Redis, logger: Logger) =>
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
          useFactory: (pool: Pool, subscriber: Redis, publisher: Redis, logger: Logger) =>
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
          useFactory: (redis: Redis, subscriber: Redis, logger: Logger) =>
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
          inject: [MONEY_PG_POOL],
          useFactory: (pool: Pool) => new SettlementService(pool),
        },
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
      ],
    };
  }

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(MONEY_PG_POOL) private readonly moneyPool: Pool,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(REDIS_SUBSCRIBER) private readonly subscriber: Redis,
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
