import { createWorkerMetrics } from './worker-metrics';

describe('scraped gauges', () => {
  it('read pools, Redis connections and leases when scraped, and nothing before one is registered', async () => {
    const metrics = createWorkerMetrics();
    expect(await metrics.registry.metrics()).not.toContain('gateway_pg_pool_connections{');

    const pool = { totalCount: 4, idleCount: 1, waitingCount: 0 };
    const redis = { status: 'ready' };
    metrics.sources.addPgPool('serving', pool);
    metrics.sources.addRedis('commands', redis);
    metrics.sources.leases = () => ({ leases: 2, openHolds: 7, availableMicros: 1_500n });
    pool.waitingCount = 3;
    redis.status = 'reconnecting';
    const text = await metrics.registry.metrics();

    expect(text).toContain('gateway_pg_pool_connections{pool="serving",state="total"} 4');
    expect(text).toContain('gateway_pg_pool_connections{pool="serving",state="idle"} 1');
    expect(text).toContain('gateway_pg_pool_connections{pool="serving",state="waiting"} 3');
    expect(text).toContain('gateway_redis_connection_ready{connection="commands"} 0');
    expect(text).toContain('gateway_leases_open 2');
    expect(text).toContain('gateway_lease_holds_open 7');
    expect(text).toContain('gateway_lease_available_micros 1500');
  });
});
