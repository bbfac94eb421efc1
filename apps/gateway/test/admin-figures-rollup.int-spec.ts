import { GatewayHarness } from './gateway-harness';

interface UsageRow {
  requests: number;
  costMicros: string;
  [column: string]: unknown;
}

/** 2,000 rows over the last five hours: 7 models, 3 channels, 40 keys, some refusals without a key. */
const FILL = `
INSERT INTO request_logs (request_id, key_id, account_id, model, channel_id, route, http_status, end_reason,
                          latency_ms, input_tokens, output_tokens, image_count, media_seconds, cost_micros,
                          created_at)
SELECT 'rollup_' || n,
       CASE WHEN n % 17 = 0 THEN NULL ELSE 'key_' || (n % 40) END,
       CASE WHEN n % 17 = 0 THEN NULL ELSE 'acct_' || (n % 4) END,
       CASE WHEN n % 23 = 0 THEN NULL ELSE 'model-' || (n % 7) END, 'ch_' || (n % 3), '/v1/chat/completions',
       CASE WHEN n % 11 = 0 THEN 502 ELSE 200 END,
       CASE WHEN n % 11 = 0 THEN 'upstream_error' ELSE 'completed' END,
       (n * 7919) % 4000, n % 300, n % 70, n % 2, n % 5, 1000 + n,
       (now() AT TIME ZONE 'UTC') - interval '5 hours' * (n::float8 / 2000)
  FROM generate_series(1, 2000) AS n`;

const ROLL_UP = "SELECT roll_up_request_logs(interval '2 minutes', interval '1 day') AS caught_up";

describe('the admin figures from the request-log rollups', () => {
  let harness: GatewayHarness;
  /** A window with ragged edges: its first and last hours are partial, read from the raw rows. */
  let window: string;
  let from: string;
  let to: string;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    await harness.query(FILL);
    from = new Date(Date.now() - 4.5 * 3_600_000 - 17_000).toISOString();
    to = new Date(Date.now() + 60_000).toISOString();
    window = `from=${from}&to=${to}`;
  }, 60_000);
  afterAll(() => harness.close());

  const usage = (query: string) => harness.adminOk<UsageRow[]>('GET', `/admin/usage?${query}&${window}`);
  const overview = (query: string) =>
    harness.adminOk<Record<string, unknown>>('GET', `/admin/overview?${query}`);
  const groupings = ['account,key', 'hour,model', 'day,channel', 'model', 'hour,account,key,model,channel'];

  it('answers the same usage and overview from the rollups as from the raw rows alone', async () => {
    const rawUsage = await Promise.all(groupings.map((groupBy) => usage(`groupBy=${groupBy}`)));
    const rawMinutes = await overview('window=6h&bucket=minute&top=3');
    const rawHours = await overview('window=6h&bucket=hour');
    expect(await harness.query('SELECT * FROM rollup_watermarks')).toEqual([]);

    expect((await harness.query<{ caught_up: boolean }>(ROLL_UP))[0].caught_up).toBe(true);
    const rolled = await harness.query<{ minutes: number; hours: number; requests: number }>(
      `SELECT (SELECT count(*)::int FROM request_log_minutes) AS minutes,
              (SELECT count(*)::int FROM request_log_hours) AS hours,
              (SELECT sum(requests)::int FROM request_log_minutes WHERE dimension = 'total') AS requests`,
    );
    // Most rows are now read from the rollups: every minute but the last two or three.
    expect(rolled[0].minutes).toBeGreaterThan(0);
    expect(rolled[0].hours).toBeGreaterThan(0);
    expect(rolled[0].requests).toBeGreaterThan(1_900);

    expect(await Promise.all(groupings.map((groupBy) => usage(`groupBy=${groupBy}`)))).toEqual(rawUsage);
    expect(await overview('window=6h&bucket=minute&top=3')).toEqual({
      ...rawMinutes,
      from: expect.any(String),
      to: expect.any(String),
    });
    expect(await overview('window=6h&bucket=hour')).toEqual({
      ...rawHours,
      from: expect.any(String),
      to: expect.any(String),
    });
  });

  it('still reads the rows written after the watermark raw, and sums each request once', async () => {
    await harness.query(ROLL_UP);
    const before = await usage('groupBy=model');
    await harness.query(
      `INSERT INTO request_logs (request_id, key_id, model, channel_id, route, http_status, end_reason,
                                 latency_ms, cost_micros, created_at)
       VALUES ('rollup_late', 'key_late', 'model-late', 'ch_0', '/v1/chat/completions', 200, 'completed', 12, 7,
               now() AT TIME ZONE 'UTC')`,
    );
    const after = await usage('groupBy=model');
    expect(after.find((row) => row['model'] === 'model-late')).toMatchObject({
      requests: 1,
      costMicros: '7',
    });
    const total = (rows: UsageRow[]) => rows.reduce((sum, row) => sum + row.requests, 0);
    expect(total(after)).toBe(total(before) + 1);
    const logged = await harness.query<{ n: number; cost: string }>(
      `SELECT count(*)::int AS n, sum(cost_micros)::text AS cost FROM request_logs
        WHERE created_at >= ($1::timestamptz AT TIME ZONE 'UTC') AND created_at < ($2::timestamptz AT TIME ZONE 'UTC')`,
      [from, to],
    );
    expect(total(after)).toBe(logged[0].n);
    expect(after.reduce((sum, row) => sum + BigInt(row.costMicros), 0n).toString()).toBe(logged[0].cost);
  });

  it('rolls each minute once however many callers race (an advisory lock, one watermark)', async () => {
    await harness.query(`UPDATE rollup_watermarks SET rolled_until = rolled_until - interval '3 hours'`);
    await harness.query(
      `DELETE FROM request_log_minutes WHERE bucket >= (SELECT rolled_until FROM rollup_watermarks WHERE name = 'minute')`,
    );
    await harness.query(
      `DELETE FROM request_log_hours WHERE bucket >= (SELECT rolled_until FROM rollup_watermarks WHERE name = 'hour')`,
    );
    await Promise.all(Array.from({ length: 4 }, () => harness.query(ROLL_UP)));
    await harness.query(ROLL_UP);
    const sums = await harness.query<{ minutes: number; hours: number; raw: number }>(
      `SELECT (SELECT sum(requests)::int FROM request_log_minutes WHERE dimension = 'total') AS minutes,
              (SELECT sum(requests)::int FROM request_log_hours) AS hours,
              (SELECT count(*)::int FROM request_logs
                WHERE created_at < (SELECT rolled_until FROM rollup_watermarks WHERE name = 'minute')) AS raw`,
    );
    expect(sums[0].minutes).toBe(sums[0].raw);
  });

  it('exports the same rows as CSV, from the rollups too', async () => {
    const json = await usage('groupBy=hour,account,key,model,channel');
    const csv = await harness.request(
      'GET',
      `/admin/usage?groupBy=hour,account,key,model,channel&format=csv&${window}`,
      {
        headers: { authorization: `Bearer ${harness.adminToken}` },
      },
    );
    expect(csv.status).toBe(200);
    const lines = csv.text.trim().split('\n');
    expect(lines).toHaveLength(json.length + 1);
    const requests = lines.slice(1).reduce((sum, line) => sum + Number(line.split(',')[5]), 0);
    expect(requests).toBe(json.reduce((sum, row) => sum + row.requests, 0));
  });
});
