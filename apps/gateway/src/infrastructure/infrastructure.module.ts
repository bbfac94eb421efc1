import { hostname } from 'node:os';
import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import type { Pool } from 'pg';
import type { DestinationStream, Logger } from 'pino';
import { KeyResolver, keyInvalidationChannel, pgKeyRowSource } from '@gateway/auth';
import { HoldLeases, HoldService, PriceBook, SettlementService } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import { createPgPool } from '@gateway/db/pg-pool';
import { createMetrics, createLogger } from '@gateway/observability';
import { createUndiciHttpClient } from '@gateway/providers-core';
import { ChannelCatalog, channelChangesChannel, CircuitBreaker, pgChannelRowSource } from '@gateway/routing';
import { QUEUE_NAMES } from '@gateway/tasks/queues';
import { LazyQueue } from './lazy-queue';
import { PriceSync } from './price-sync.service';
import {
  CONFIG,
  LOGGER,
  METRICS,
  MONEY_PG_POOL,
  PG_POOL,
  REDIS,
  REDIS_SUBSCRIBER,
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
        { provide: PG_POOL, useFactory: () => createPgPool(config.databaseUrl, config.databasePoolSize) },
        {
          provide: MONEY_PG_POOL,
          useFactory: () =>
            createPgPool(config.databaseUrl, config.databasePoolSize, { asynchronousCommit: true }),
        },
        { provide: REDIS, useFactory: () => new Redis(config.redisUrl, { maxRetriesPerRequest: null }) },
        {
          provide: REDIS_SUBSCRIBER,
          useFactory: () => new Redis(config.redisUrl, { maxRetriesPerRequest: null }),
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
          provide: SETTLEMENT_QUEUE,
          inject: [REDIS],
          useFactory: (redis: Redis) => new LazyQueue(QUEUE_NAMES.textSettlement, redis, config.redisPrefix),
        },
        {
          provide: KeyResolver,
          inject: [PG_POOL, REDIS_SUBSCRIBER, REDIS],
          useFactory: (pool: Pool, subscriber: Redis, publisher: Redis) =>
            new KeyResolver(pgKeyRowSource(pool), subscriber, publisher, {
              ttlMs: config.keyCacheTtlMs,
              channelName: keyInvalidationChannel(config.redisPrefix),
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
        SETTLEMENT_QUEUE,
        KeyResolver,
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
