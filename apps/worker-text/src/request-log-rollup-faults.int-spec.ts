import type { GatewayLogger } from '@gateway/observability';
import { createTestDatabase, waitFor, type TestDatabase } from '@gateway/testing';
import { Client, Pool } from 'pg';
import { RequestLogRollupProcessor } from './request-log-rollup.processor';
import { rollupDifferences } from './request-log-rollup.reference';

/**
 * The rollup killed mid-transaction (its Postgres backend terminated while it waits on a lock the
 * test holds, after it has inserted rows) and run again: the rollups equal the raw rows' sums, every
 * minute and hour counted once, none missing.
 */
describe('the request-log rollup killed mid-run', () => {
  let database: TestDatabase;
  let pool: Pool;
  const logger = { warn: () => undefined } as unknown as GatewayLogger;
  const config = { rollupRetention: { minuteDays: 7, hourDays: 400, sweepBatch: 1_000 } };

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new Pool({ connectionString: database.url, max: 4 });
    // 20,000 rows over the last 50 hours: 5 models, 3 channels, some errors, latencies 0 to 5 s.
    await pool.query(
      `INSERT INTO request_logs (request_id, key_id, account_id, model, channel_id, route, http_status, end_reason,
                                 latency_ms, input_tokens, output_tokens, cost_micros, created_at)
       SELECT 'f' || n, 'key_' || (n % 9), 'acct_' || (n % 3), CASE WHEN n % 31 = 0 THEN NULL ELSE 'model-' || (n % 5) END,
              'ch_' || (n % 3), '/v1/chat/completions', CASE WHEN n % 13 = 0 THEN 502 ELSE 200 END,
              CASE WHEN n % 13 = 0 THEN 'upstream_error' ELSE 'completed' END, (n * 7919) % 5000, n % 100, n % 40,
              n % 997, (now() AT TIME ZONE 'UTC') - interval '50 hours' * (n::float8 / 20000)
         FROM generate_series(1, 20000) AS n`,
    );
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  /**
   * Starts one roll_up_request_logs call while `lockedTable` is locked by another transaction, waits
   * until the call blocks on it (its earlier inserts done, uncommitted), terminates its backend, and
   * returns the error the call ended with.
   */
  async function killRollupBlockedOn(lockedTable: string): Promise<unknown> {
    const locker = new Client({ connectionString: database.url });
    const victim = new Client({ connectionString: database.url });
    await Promise.all([locker.connect(), victim.connect()]);
    victim.on('error', () => undefined);
    try {
      await locker.query(`BEGIN; LOCK TABLE ${lockedTable} IN EXCLUSIVE MODE`);
      const pid = (await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const call = victim.query("SELECT roll_up_request_logs(interval '2 minutes', interval '1 day')").then(
        () => undefined,
        (error: unknown) => error,
      );
      await waitFor(async () => {
        const { rows } = await pool.query<{ waiting: boolean }>(
          `SELECT wait_event_type = 'Lock' AS waiting FROM pg_stat_activity WHERE pid = $1`,
          [pid],
        );
        return rows[0]?.waiting === true;
      });
      await pool.query('SELECT pg_terminate_backend($1)', [pid]);
      return await call;
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
      await victim.end().catch(() => undefined);
    }
  }

  const counts = async () =>
    (
      await pool.query<{ minutes: number; hours: number; series: number; marks: number }>(
        `SELECT (SELECT count(*)::int FROM request_log_minutes) AS minutes,
                (SELECT count(*)::int FROM request_log_hours) AS hours,
                (SELECT count(*)::int FROM request_log_series_hours) AS series,
                (SELECT count(*)::int FROM rollup_watermarks) AS marks`,
      )
    ).rows[0];

  it('leaves nothing of a first call killed after its minute rows, before its watermark', async () => {
    const error = await killRollupBlockedOn('rollup_watermarks');
    expect(String(error)).toMatch(/terminat/i);
    expect(await counts()).toEqual({ minutes: 0, hours: 0, series: 0, marks: 0 });
  });

  it('keeps the committed day of a catch-up when a later call is killed in its hour section', async () => {
    // One whole call commits (the first day), the next one dies after its minute rows and hour rows.
    expect(
      (await pool.query("SELECT roll_up_request_logs(interval '2 minutes', interval '1 day') AS done"))
        .rows[0].done,
    ).toBe(false);
    const committed = await counts();
    expect(committed.minutes).toBeGreaterThan(0);
    const error = await killRollupBlockedOn('request_log_series_hours');
    expect(String(error)).toMatch(/terminat/i);
    expect(await counts()).toEqual(committed);
    expect(await rollupDifferences(pool)).toMatchObject({ minutes: 0, hours: 0, seriesHours: 0 });
  });

  it('rolls everything exactly once when run again, equal to the raw rows summed', async () => {
    const processor = new RequestLogRollupProcessor(pool, logger, config);
    expect(await processor.rollUp()).toBe(true);
    const differences = await rollupDifferences(pool);
    expect(differences).toMatchObject({ minutes: 0, hours: 0, seriesHours: 0 });
    expect(differences.rawRequests).toBeGreaterThan(19_900);
    const { rows } = await pool.query<{ rolled: number; raw: number }>(
      `SELECT (SELECT sum(requests)::int FROM request_log_minutes WHERE dimension = 'total') AS rolled,
              (SELECT count(*)::int FROM request_logs
                WHERE created_at < (SELECT rolled_until FROM rollup_watermarks WHERE name = 'minute')) AS raw`,
    );
    expect(rows[0].rolled).toBe(rows[0].raw);
  });

  it('would see a minute counted twice or lost (the check itself)', async () => {
    const copied = await pool.query(
      `INSERT INTO request_log_minutes (bucket, dimension, name, requests, errors, cost_micros)
       SELECT bucket, dimension, name, requests, errors, cost_micros FROM request_log_minutes
        WHERE dimension = 'total' ORDER BY bucket LIMIT 1 RETURNING id`,
    );
    // The copy lacks the histogram: one stored row that the raw rows do not give.
    expect((await rollupDifferences(pool)).minutes).toBe(1);
    await pool.query('DELETE FROM request_log_minutes WHERE id = $1', [copied.rows[0].id]);
    await pool.query(
      `DELETE FROM request_log_hours WHERE id = (SELECT id FROM request_log_hours ORDER BY bucket DESC LIMIT 1)`,
    );
    expect(await rollupDifferences(pool)).toMatchObject({ minutes: 0, hours: 1 });
  });
});
