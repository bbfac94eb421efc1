import {
  GatewayHarness,
  NATIVE_GENERATE_PATH,
  NATIVE_HELLO_BODY,
  type TextDemo,
} from '../../../test/gateway-harness';

interface Row {
  group: string;
  requests: number;
  errors: number;
  costMicros: string;
  [column: string]: unknown;
}

/** Logged rows of a fixed past window, as settlement writes them (one per request, money in micros). */
const PAST_ROWS = [
  { at: '2026-03-01T10:15:00Z', account: 'acct_a', key: 'key_a', model: 'm-1', channel: 'ch_a', cost: 100n },
  { at: '2026-03-01T10:45:00Z', account: 'acct_a', key: 'key_a', model: 'm-2', channel: 'ch_b', cost: 7n },
  {
    at: '2026-03-01T11:05:00Z',
    account: 'acct_a',
    key: 'key_b',
    model: 'm-1',
    channel: 'ch_a',
    cost: 9007199254740993n,
  },
  { at: '2026-03-02T09:00:00Z', account: 'acct_b', key: 'key_c', model: 'm-2', channel: 'ch_b', cost: 1n },
  { at: '2026-03-02T23:59:59Z', account: null, key: null, model: 'm-2', channel: null, cost: 0n },
  // Outside the window of the tests below: the window must leave it out.
  { at: '2026-03-03T00:00:00Z', account: 'acct_b', key: 'key_c', model: 'm-1', channel: 'ch_a', cost: 50n },
];
const PAST = 'from=2026-03-01T00:00:00Z&to=2026-03-03T00:00:00Z';

/** `requests` and `costMicros` of each row, keyed by its group, for short expectations. */
function byGroup(rows: Row[]): Record<string, [number, string]> {
  return Object.fromEntries(rows.map((row) => [row.group, [row.requests, row.costMicros]]));
}

/** CSV text as objects, with the column types of the JSON rows; the files never quote our values. */
function parseCsv(text: string): Record<string, unknown>[] {
  const [header, ...lines] = text.trimEnd().split('\n');
  const columns = (header ?? '').split(',');
  return lines.map((line) =>
    Object.fromEntries(
      line.split(',').map((value, index) => {
        const column = columns[index] ?? '';
        const numeric = ['requests', 'errors', 'inputTokens', 'outputTokens', 'images', 'mediaSeconds'];
        return [column, numeric.includes(column) ? Number(value) : value];
      }),
    ),
  );
}

describe('GET /admin/usage by groups and GET /admin/overview', () => {
  let harness: GatewayHarness;
  let demo: TextDemo;
  let startedAt: Date;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await harness.seedTextDemo();
    // Created_at is written at whole milliseconds in UTC: a window from a second back holds every row.
    startedAt = new Date(Date.now() - 1000);
    for (let index = 0; index < 4; index += 1) {
      const answer = await harness.request('POST', NATIVE_GENERATE_PATH, {
        body: NATIVE_HELLO_BODY,
        headers: { 'x-vendor-api-key': demo.key },
      });
      expect(answer.status).toBe(200);
    }
    await harness.settled();
    for (const [index, row] of PAST_ROWS.entries()) {
      await harness.query(
        `INSERT INTO request_logs (request_id, key_id, account_id, model, channel_id, route, http_status,
                                   end_reason, latency_ms, input_tokens, output_tokens, image_count,
                                   media_seconds, cost_micros, created_at)
         VALUES ($1, $2, $3, $4, $5, '/v1/videos', $6, $7, 10, 3, 4, $8, $9, $10,
                 ($11::timestamptz AT TIME ZONE 'UTC'))`,
        [
          `past_${index}`,
          row.key,
          row.account,
          row.model,
          row.channel,
          row.key === null ? 401 : 200,
          row.key === null ? 'refused' : 'completed',
          index % 2,
          index * 5,
          row.cost.toString(),
          row.at,
        ],
      );
    }
  }, 60_000);
  afterAll(() => harness.close());

  async function usage(query: string): Promise<Row[]> {
    const answer = await harness.admin<Row[]>('GET', `/admin/usage?${query}`);
    expect(answer.status).toBe(200);
    return answer.body;
  }

  it('sums what the settlements captured: the same micros as the ledger over the same window', async () => {
    const to = new Date(Date.now() + 1000);
    const window = `from=${startedAt.toISOString()}&to=${to.toISOString()}`;
    const rows = await usage(`groupBy=account&${window}`);
    const captured = await harness.query<{ total: string; requests: string }>(
      `SELECT COALESCE(sum(amount), 0)::text AS total, count(*)::text AS requests FROM ledger_entries
        WHERE kind = 'capture'
          AND created_at >= ($1::timestamptz AT TIME ZONE 'UTC') AND created_at < ($2::timestamptz AT TIME ZONE 'UTC')`,
      [startedAt.toISOString(), to.toISOString()],
    );
    const total = rows.reduce((sum, row) => sum + BigInt(row.costMicros), 0n);
    expect(BigInt(captured[0]?.total ?? '-1')).toBeGreaterThan(0n);
    expect(total.toString()).toBe(captured[0]?.total);
    expect(rows).toEqual([
      expect.objectContaining({
        accountId: demo.accountId,
        requests: 4,
        errors: 0,
        costMicros: captured[0]?.total,
      }),
    ]);
    const { capture } = await harness.ledgerTotals(demo.accountId);
    expect(total).toBe(capture);
  });

  it('groups by each of day, hour, account, key, model and channel over the window', async () => {
    expect(byGroup(await usage(`groupBy=day&${PAST}`))).toEqual({
      '2026-03-01': [3, '9007199254741100'],
      '2026-03-02': [2, '1'],
    });
    expect(byGroup(await usage(`groupBy=hour&${PAST}`))).toEqual({
      '2026-03-01T10:00Z': [2, '107'],
      '2026-03-01T11:00Z': [1, '9007199254740993'],
      '2026-03-02T09:00Z': [1, '1'],
      '2026-03-02T23:00Z': [1, '0'],
    });
    expect(byGroup(await usage(`groupBy=account&${PAST}`))).toEqual({
      '(none)': [1, '0'],
      acct_a: [3, '9007199254741100'],
      acct_b: [1, '1'],
    });
    expect(byGroup(await usage(`groupBy=key&${PAST}`))).toEqual({
      '(none)': [1, '0'],
      key_a: [2, '107'],
      key_b: [1, '9007199254740993'],
      key_c: [1, '1'],
    });
    expect(byGroup(await usage(`groupBy=model&${PAST}`))).toEqual({
      'm-1': [2, '9007199254741093'],
      'm-2': [3, '8'],
    });
    expect(byGroup(await usage(`groupBy=channel&${PAST}`))).toEqual({
      '(none)': [1, '0'],
      ch_a: [2, '9007199254741093'],
      ch_b: [2, '8'],
    });
  });

  it('groups by several at once, with every figure and a column per grouping', async () => {
    const rows = await usage(`groupBy=day,model&${PAST}`);
    expect(rows).toEqual([
      {
        group: '2026-03-01,m-1',
        day: '2026-03-01',
        model: 'm-1',
        requests: 2,
        errors: 0,
        inputTokens: 6,
        outputTokens: 8,
        images: 0,
        mediaSeconds: 10,
        costMicros: '9007199254741093',
      },
      {
        group: '2026-03-01,m-2',
        day: '2026-03-01',
        model: 'm-2',
        requests: 1,
        errors: 0,
        inputTokens: 3,
        outputTokens: 4,
        images: 1,
        mediaSeconds: 5,
        costMicros: '7',
      },
      {
        group: '2026-03-02,m-2',
        day: '2026-03-02',
        model: 'm-2',
        requests: 2,
        errors: 1,
        inputTokens: 6,
        outputTokens: 8,
        images: 1,
        mediaSeconds: 35,
        costMicros: '1',
      },
    ]);
  });

  it('defaults to the last 24 hours, which holds the real requests and none of the past rows', async () => {
    const rows = await usage('groupBy=model');
    expect(rows.map((row) => [row.model, row.requests])).toEqual([['kappa-2.0-flash', 4]]);
  });

  it('streams the same rows as CSV', async () => {
    const query = `groupBy=hour,account,key,model,channel&${PAST}`;
    const json = await usage(query);
    const csv = await harness.admin('GET', `/admin/usage?${query}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.text.split('\n')[0]).toBe(
      'hour,accountId,keyId,model,channelId,requests,errors,inputTokens,outputTokens,images,mediaSeconds,costMicros',
    );
    expect(parseCsv(csv.text)).toEqual(json.map(({ group: _group, ...row }) => row));
    expect(json).toHaveLength(5);
  });

  it.each([
    ['groupBy=tenant', 'groupBy'],
    ['groupBy=day,hour', 'groupBy'],
    ['groupBy=model,model', 'groupBy'],
    ['groupBy=model;DROP TABLE request_logs', 'groupBy'],
    ['groupBy=mo%00del', 'groupBy'],
    ['', 'groupBy'],
    ['groupBy=model&from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z', 'from'],
    ['groupBy=model&from=2020-01-01T00:00:00Z&to=2026-03-01T00:00:00Z', 'from'],
    ['groupBy=model&from=2020-01-01', 'from'],
    ['groupBy=model&from=yesterday', 'from'],
    ['groupBy=model&to=2026-13-01', 'to'],
    ['groupBy=model&from=2026-03-01%00', 'from'],
    ['groupBy=model&format=xml', 'format'],
    ['groupBy=model&format=csv&format=json', 'format'],
    ['groupBy=model&groupBy=key', 'groupBy'],
    ['groupBy=model&limit=1', 'limit'],
  ])('refuses %s with a 400 naming %s', async (query, param) => {
    const answer = await harness.admin<{ error: { param: string; type: string } }>(
      'GET',
      `/admin/usage?${query}`,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error.param).toBe(param);
  });

  describe('overview', () => {
    beforeAll(async () => {
      // Four requests of one model and channel in one minute 20 minutes ago, latencies 10 to 40 ms.
      for (const [index, latency] of [10, 20, 30, 40].entries()) {
        await harness.query(
          `INSERT INTO request_logs (request_id, key_id, model, channel_id, route, http_status, end_reason,
                                     latency_ms, cost_micros, created_at)
           VALUES ($1, 'key_o', 'ov-model', 'ch_o', '/v1/chat/completions', $2, $3, $4, 5,
                   date_trunc('minute', now() AT TIME ZONE 'UTC') - interval '20 minutes')`,
          [
            `overview_${index}`,
            index === 3 ? 502 : 200,
            index === 3 ? 'upstream_error' : 'completed',
            latency,
          ],
        );
      }
    });

    it('plots requests, errors, spend and p50/p95 latency per minute, per model and per channel', async () => {
      const answer = await harness.admin<Record<string, unknown>>(
        'GET',
        '/admin/overview?window=1h&bucket=minute',
      );
      expect(answer.status).toBe(200);
      const view = answer.body as {
        bucket: string;
        total: { requests: number }[];
        byModel: { name: string; points: Record<string, unknown>[] }[];
        byChannel: { name: string; points: Record<string, unknown>[] }[];
      };
      expect(view.bucket).toBe('minute');
      expect(view.total.reduce((sum, point) => sum + point.requests, 0)).toBe(8);
      const model = view.byModel.find((series) => series.name === 'ov-model');
      expect(model?.points).toEqual([
        {
          at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/),
          requests: 4,
          errors: 1,
          spendMicros: '20',
          // Estimated from the latency histogram (exactly: 25 and 38.5; see latency-histogram.util.ts).
          latencyP50Ms: 30,
          latencyP95Ms: 43.5,
        },
      ]);
      expect(view.byChannel.find((series) => series.name === 'ch_o')?.points).toEqual(model?.points);
      const captured = await harness.ledgerTotals(demo.accountId);
      const spend = view.total.reduce((sum, point) => sum + BigInt(point['spendMicros' as never]), 0n);
      expect(spend).toBe(captured['capture']! + 20n);
    });

    it('keeps the top models by requests and sums the rest as (other)', async () => {
      const view = await harness.adminOk<{ byModel: { name: string; points: { requests: number }[] }[] }>(
        'GET',
        '/admin/overview?window=2h&bucket=hour&top=1',
      );
      expect(view.byModel.map((series) => series.name)).toEqual(['kappa-2.0-flash', '(other)']);
      expect(view.byModel[1]?.points.reduce((sum, point) => sum + point.requests, 0)).toBe(4);
    });

    it.each([
      ['window=49h&bucket=minute', 'window'],
      ['window=93d', 'window'],
      ['window=24', 'window'],
      ['window=-1h', 'window'],
      ['window=1h%00', 'window'],
      ['bucket=second', 'bucket'],
      ['top=0', 'top'],
      ['top=21', 'top'],
      ['model=x', 'model'],
    ])('refuses %s with a 400 naming %s', async (query, param) => {
      const answer = await harness.admin<{ error: { param: string } }>('GET', `/admin/overview?${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error.param).toBe(param);
    });
  });
});
