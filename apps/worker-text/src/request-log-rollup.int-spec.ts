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

  /** The database's clock in UTC, as the rollup reads it. */
  async function databaseNow(): Promise<string> {
    const { rows } = await pool.query<{ at: string }>(`SELECT (now() AT TIME ZONE 'UTC')::text AS at`);
    return rows[0].at;
  }

  it('rolls every minute older than the settle lag, leaving the newest rows raw', async () => {
    const processor = new RequestLogRollupProcessor(pool, logger, config);
    const before = await databaseNow();
    expect(await processor.rollUp()).toBe(true);
    const after = await databaseNow();
    // The watermark is the start of the minute two minutes (the settle lag) before the tick, whose
    // moment lies between the two readings; on a slow machine they may straddle a minute.
    const { rows } = await pool.query<{ rolled: number; raw: number; at_settle_lag: boolean }>(
      `SELECT (SELECT sum(requests)::int FROM request_log_minutes WHERE dimension = 'total') AS rolled,
              (SELECT count(*)::int FROM request_logs WHERE created_at >= w.rolled_until) AS raw,
              w.rolled_until BETWEEN date_trunc('minute', $1::timestamp - interval '2 minutes')
                                 AND date_trunc('minute', $2::timestamp - interval '2 minutes') AS at_settle_lag
         FROM rollup_watermarks w WHERE w.name = 'minute'`,
      [before, after],
    );
    expect(rows[0].rolled + rows[0].raw).toBe(90);
    expect(rows[0].raw).toBeGreaterThanOrEqual(2);
    expect(rows[0].at_settle_lag).toBe(true);
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
