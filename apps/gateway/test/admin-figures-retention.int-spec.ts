import { GatewayHarness } from './gateway-harness';

interface OverviewPoint {
  requests: number;
  spendMicros: string;
}
interface Overview {
  total: OverviewPoint[];
  byModel: { name: string; points: OverviewPoint[] }[];
  [field: string]: unknown;
}

/** 3,000 rows over the last 9.5 days (none in the first half day of a 10-day window): 6 models, 3 channels. */
const FILL = `
INSERT INTO request_logs (request_id, key_id, account_id, model, channel_id, route, http_status, end_reason,
                          latency_ms, input_tokens, output_tokens, cost_micros, created_at)
SELECT 'retained_' || n, 'key_' || (n % 7), 'acct_' || (n % 2), 'model-' || (n % 6), 'ch_' || (n % 3),
       '/v1/chat/completions', CASE WHEN n % 9 = 0 THEN 502 ELSE 200 END,
       CASE WHEN n % 9 = 0 THEN 'upstream_error' ELSE 'completed' END, (n * 7919) % 3000, n % 90, n % 30, 500 + n,
       (now() AT TIME ZONE 'UTC') - interval '9.5 days' * (n::float8 / 3000)
  FROM generate_series(1, 3000) AS n`;

/** What worker-text's ticks do with minutes kept 2 days and hours 6. */
const SWEEP = "SELECT sweep_request_log_rollups(interval '2 days', interval '6 days', 5000) AS deleted";

describe('the admin figures once the rollups are swept', () => {
  let harness: GatewayHarness;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    await harness.query(FILL);
    for (;;) {
      const done = await harness.query<{ done: boolean }>(
        "SELECT roll_up_request_logs(interval '2 minutes', interval '1 day') AS done",
      );
      if (done[0].done) break;
    }
  }, 120_000);
  afterAll(() => harness.close());

  const overview = (query: string) => harness.adminOk<Overview>('GET', `/admin/overview?${query}`);
  const usage = () =>
    harness.adminOk<{ model: string; requests: number; costMicros: string }[]>(
      'GET',
      `/admin/usage?groupBy=model&from=${new Date(Date.now() - 10 * 86_400_000).toISOString()}`,
    );
  const withoutWindow = ({ from: _from, to: _to, ...view }: Overview) => view;

  it('answers the same hourly chart, minute chart and usage after the sweep as before it', async () => {
    const hourly = await overview('window=10d&bucket=hour&top=3');
    const minutes = await overview('window=48h&bucket=minute&top=3');
    const byModel = await usage();

    let swept = 0;
    for (let batch = Number((await harness.query<{ deleted: number }>(SWEEP))[0].deleted); batch > 0;) {
      swept += batch;
      batch = Number((await harness.query<{ deleted: number }>(SWEEP))[0].deleted);
    }
    expect(swept).toBeGreaterThan(1_000);
    const left = await harness.query<{ minutes_days: number; hours_days: number }>(
      `SELECT extract(epoch FROM (now() AT TIME ZONE 'UTC') - (SELECT min(bucket) FROM request_log_minutes)) / 86400 AS minutes_days,
              extract(epoch FROM (now() AT TIME ZONE 'UTC') - (SELECT min(bucket) FROM request_log_hours)) / 86400 AS hours_days`,
    );
    expect(Number(left[0].minutes_days)).toBeLessThan(2.1);
    expect(Number(left[0].hours_days)).toBeLessThan(6.1);

    // Hours older than the minutes kept come from the series per hour; usage older than the hours
    // kept is read from the raw rows: the same figures.
    expect(withoutWindow(await overview('window=10d&bucket=hour&top=3'))).toEqual(withoutWindow(hourly));
    expect(withoutWindow(await overview('window=48h&bucket=minute&top=3'))).toEqual(withoutWindow(minutes));
    expect(await usage()).toEqual(byModel);

    const requests = (view: Overview) => view.total.reduce((sum, point) => sum + point.requests, 0);
    const logged = await harness.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM request_logs WHERE created_at >= (now() AT TIME ZONE 'UTC') - interval '10 days'`,
    );
    expect(requests(hourly)).toBe(logged[0].n);
    expect(byModel.reduce((sum, row) => sum + row.requests, 0)).toBe(logged[0].n);
    // Six models, three drawn: (other) is the rest, point by point.
    expect(hourly.byModel.map((series) => series.name)).toHaveLength(4);
    expect(hourly.byModel.at(-1)?.name).toBe('(other)');
    const drawn = hourly.byModel.reduce(
      (sum, series) => sum + series.points.reduce((inner, point) => inner + point.requests, 0),
      0,
    );
    expect(drawn).toBe(logged[0].n);
  });
});
