import type { GatewayLogger } from '@gateway/observability';
import { createTestDatabase, type TestDatabase } from '@gateway/testing';
import { Pool } from 'pg';
import { RequestLogRollupProcessor } from './request-log-rollup.processor';
import { rollupDifferences } from './request-log-rollup.reference';

/** The retention of the rollups: what the sweep deletes, in batches, and what it must keep. */
describe('the request-log rollups past their retention', () => {
  let database: TestDatabase;
  let pool: Pool;
  const logger = { warn: () => undefined } as unknown as GatewayLogger;
  // Minutes kept 3 days, hours 5; batches of 100 rows, so that a tick's sweep leaves some for the next.
  const config = { rollupRetention: { minuteDays: 3, hourDays: 5, sweepBatch: 100 } };
  let processor: RequestLogRollupProcessor;

  const scalar = async (sql: string) => (await pool.query<{ value: unknown }>(sql)).rows[0].value;
  const oldest = (table: string) =>
    scalar(
      `SELECT extract(epoch FROM (now() AT TIME ZONE 'UTC') - min(bucket)) / 86400 AS value FROM ${table}`,
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new Pool({ connectionString: database.url, max: 2 });
    processor = new RequestLogRollupProcessor(pool, logger, config);
    // 4,000 rows over the last 8 days: 3 models, 2 channels.
    await pool.query(
      `INSERT INTO request_logs (request_id, key_id, model, channel_id, route, http_status, end_reason, latency_ms,
                                 cost_micros, created_at)
       SELECT 'k' || n, 'key_' || (n % 5), 'model-' || (n % 3), 'ch_' || (n % 2), '/v1/chat/completions', 200,
              'completed', (n * 31) % 900, n % 50, (now() AT TIME ZONE 'UTC') - interval '8 days' * (n::float8 / 4000)
         FROM generate_series(1, 4000) AS n`,
    );
    while (!(await processor.rollUp())) {
      // catching up a day per call, eight calls per tick
    }
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it('keeps everything before the sweep, and sweeps nothing before any rollup ran', async () => {
    expect(Number(await oldest('request_log_minutes'))).toBeGreaterThan(7.9);
    expect(await rollupDifferences(pool)).toMatchObject({ minutes: 0, hours: 0, seriesHours: 0 });
    const empty = await createTestDatabase();
    const emptyPool = new Pool({ connectionString: empty.url, max: 1 });
    try {
      expect(await new RequestLogRollupProcessor(emptyPool, logger, config).sweep()).toBe(0);
      expect((await emptyPool.query(`SELECT name FROM rollup_watermarks ORDER BY name`)).rows).toEqual([
        { name: 'hour_floor' },
      ]);
    } finally {
      await emptyPool.end();
      await empty.drop();
    }
  });

  it('deletes minutes past 3 days and hours past 5, in batches, publishing the floors', async () => {
    const before = Number(
      await scalar(`SELECT (SELECT count(*) FROM request_log_minutes) + (SELECT count(*) FROM request_log_hours)
                         + (SELECT count(*) FROM request_log_series_hours) AS value`),
    );
    // One tick deletes at most 20 statements of 100 rows per table, then leaves the rest to the next.
    const firstTick = await processor.sweep();
    expect(firstTick).toBeGreaterThan(100);
    expect(firstTick).toBeLessThanOrEqual(20 * 3 * 100);
    let deleted = firstTick;
    for (let tick = await processor.sweep(); tick > 0; tick = await processor.sweep()) deleted += tick;
    expect(deleted).toBeGreaterThan(firstTick);
    const after = Number(
      await scalar(`SELECT (SELECT count(*) FROM request_log_minutes) + (SELECT count(*) FROM request_log_hours)
                         + (SELECT count(*) FROM request_log_series_hours) AS value`),
    );
    expect(before - after).toBe(deleted);

    const floors = await pool.query<{ name: string; days: number; whole_hour: boolean }>(
      `SELECT name, extract(epoch FROM (now() AT TIME ZONE 'UTC') - rolled_until) / 86400 AS days,
              rolled_until = date_trunc('hour', rolled_until) AS whole_hour
         FROM rollup_watermarks WHERE name LIKE '%floor' ORDER BY name`,
    );
    expect(floors.rows.map((row) => [row.name, Math.round(row.days), row.whole_hour])).toEqual([
      ['hour_floor', 5, true],
      ['minute_floor', 3, true],
    ]);
    // Floors are whole hours: at most an hour past the retention.
    expect(Number(await oldest('request_log_minutes'))).toBeLessThanOrEqual(3 + 1 / 24);
    expect(Number(await oldest('request_log_hours'))).toBeLessThanOrEqual(5 + 1 / 24);
    expect(Number(await oldest('request_log_series_hours'))).toBeLessThanOrEqual(5 + 1 / 24);
    // What is kept is untouched: every bucket from the floors on still equals the raw rows' sums.
    expect(
      await rollupDifferences(pool, `(SELECT rolled_until FROM rollup_watermarks WHERE name = 'hour_floor')`),
    ).toMatchObject({ hours: 0, seriesHours: 0 });
    expect(
      await rollupDifferences(
        pool,
        `(SELECT rolled_until FROM rollup_watermarks WHERE name = 'minute_floor')`,
      ),
    ).toMatchObject({ minutes: 0 });
    // The series per hour still hold the hours whose minutes are gone.
    expect(Number(await oldest('request_log_series_hours'))).toBeGreaterThan(4.9);
    expect(await processor.sweep()).toBe(0);
  });

  it('never sweeps minutes the series per hour do not hold yet', async () => {
    await pool.query(
      `UPDATE rollup_watermarks SET rolled_until = rolled_until - interval '2 days' WHERE name = 'hour'`,
    );
    await pool.query(`UPDATE rollup_watermarks SET rolled_until = '-infinity' WHERE name = 'minute_floor'`);
    const hourMark = await scalar(`SELECT rolled_until AS value FROM rollup_watermarks WHERE name = 'hour'`);
    await pool.query(`SELECT sweep_request_log_rollups(interval '1 hour', interval '400 days', 1000000)`);
    expect(
      await scalar(`SELECT rolled_until AS value FROM rollup_watermarks WHERE name = 'minute_floor'`),
    ).toEqual(hourMark);
    expect(
      Number(
        await scalar(
          `SELECT count(*) AS value FROM request_log_minutes WHERE bucket >= (SELECT rolled_until FROM rollup_watermarks WHERE name = 'hour')`,
        ),
      ),
    ).toBeGreaterThan(0);
    expect(
      Number(
        await scalar(
          `SELECT count(*) AS value FROM request_log_minutes WHERE bucket < (SELECT rolled_until FROM rollup_watermarks WHERE name = 'hour')`,
        ),
      ),
    ).toBe(0);
  });
});
