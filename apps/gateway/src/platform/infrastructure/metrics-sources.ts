import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { HoldLeases } from '@gateway/billing';
import type { GatewayMetrics, RedisConnectionStatus } from '@gateway/observability';
import { METRICS, MONEY_PG_POOL, PG_POOL, REDIS, REDIS_SUBSCRIBER } from './tokens';

/**
 * Hands the process's connection pools and leases to the metrics, which read them only when
 * Prometheus scrapes (gateway_pg_pool_connections, gateway_redis_connection_ready, gateway_lease_*).
 */
@Injectable()
export class MetricsSources {
  constructor(
    @Inject(METRICS) metrics: GatewayMetrics,
    @Inject(PG_POOL) pool: Pool,
    @Inject(MONEY_PG_POOL) moneyPool: Pool,
    @Inject(REDIS) redis: RedisConnectionStatus,
    @Inject(REDIS_SUBSCRIBER) subscriber: RedisConnectionStatus,
    leases: HoldLeases,
  ) {
    metrics.sources.addPgPool('serving', pool);
    metrics.sources.addPgPool('money', moneyPool);
    metrics.sources.addRedis('commands', redis);
    metrics.sources.addRedis('subscriber', subscriber);
    metrics.sources.leases = () => leases.figures();
  }
}
