import type { GatewayLogger } from '@gateway/observability';
import { createTestDatabase, type TestDatabase } from '@gateway/testing';
import { Pool } from 'pg';
import { RequestLogRollupProcessor } from './request-log-rollup.processor';

/** worker-text's rollup tick against a real database: what it rolls, and what it leaves raw. */
describe('RequestLogRollupProcessor', () => {
  let database: TestDatabase;
  let pool: Pool;
  const warnings: string[] = [];
  const logger = {
    warn: (_fields: unknown, message: string) => warnings.push(message),
  } as unknown as GatewayLogger;
  const config = { rollupRetention: { minuteDays: 7, hourDays: 400, sweepBatch: 1_000 } };

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new Pool({ connectionString: database.url, max: 2 });
    // 90 rows over the last 90 minutes, one a minute, the newest a few seconds old.
    await pool.query(
      `INSERT INTO request_logs (request_id, key_id, model, channel_id, route, http_status, end_reason, latency_ms,
                                 cost_micros, created_at)
       SELECT 'r' || n, 'key_a', 'model-a', 'ch_a', '/v1/chat/completions', 200, 'completed', 40, 3,
              (now() AT TIME ZONE 'UTC') - interval '1 minute' * n + interval '5 seconds'
         FROM generate_series(0, 89) AS n`,
    );
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it('rolls every minute older than the settle lag, leaving the newest rows raw', async () => {
    const processor = new RequestLogRollupProcessor(pool, logger, config);
    expect(await processor.rollUp()).toBe(true);
    const { rows } = await pool.query<{ rolled: number; raw: number; lag_s: number }>(
      `SELECT (SELECT sum(requests)::int FROM request_log_minutes WHERE dimension = 'total') AS rolled,
              (SELECT count(*)::int FROM request_logs WHERE created_at >= w.rolled_until) AS raw,
              extract(epoch FROM (now() AT TIME ZONE 'UTC') - w.rolled_until)::int AS lag_s
         FROM rollup_watermarks w WHERE w.name = 'minute'`,
    );
    expect(rows[0].rolled + rows[0].raw).toBe(90);
    expect(rows[0].raw).toBeGreaterThanOrEqual(2);
    expect(rows[0].lag_s).toBeGreaterThanOrEqual(120);
    expect(rows[0].lag_s).toBeLessThan(180);
    // A second tick has nothing new to roll: the sums stay.
    await processor.rollUp();
    const again = await pool.query<{ rolled: number }>(
      `SELECT sum(requests)::int AS rolled FROM request_log_minutes WHERE dimension = 'total'`,
    );
    expect(again.rows[0].rolled).toBe(rows[0].rolled);
  });

  it('logs a failed tick instead of throwing, and stops cleanly', async () => {
    const broken = new Pool({ connectionString: database.url, max: 1 });
    await broken.end();
    const processor = new RequestLogRollupProcessor(broken, logger, config);
    processor.onApplicationBootstrap();
    await processor.onApplicationShutdown();
    expect(warnings).toContain('request-log rollup failed');
  });
});
