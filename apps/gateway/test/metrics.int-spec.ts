import { GatewayHarness, NATIVE_GENERATE_PATH, NATIVE_HELLO_BODY, type TextDemo } from './gateway-harness';

/** A number of one series in Prometheus' text format; undefined when the series is absent. */
function seriesValue(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** The gateway's /metrics after real traffic: what the settlements, pools and leases report. */
describe('gateway /metrics (Postgres, Redis, simulator)', () => {
  let harness: GatewayHarness;
  let demo: TextDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await harness.seedTextDemo();
  });

  afterAll(() => harness.close());

  it('counts tokens, spend and the first byte of streams by model, once each settlement is written', async () => {
    const headers = { 'x-vendor-api-key': demo.key };
    const whole = await harness.request<{
      usageMetadata: { promptTokenCount: number; candidatesTokenCount: number };
    }>('POST', NATIVE_GENERATE_PATH, { body: NATIVE_HELLO_BODY, headers });
    expect(whole.status).toBe(200);
    const streamed = await harness.request(
      'POST',
      `${NATIVE_GENERATE_PATH.replace(':generateContent', ':streamGenerateContent')}?alt=sse`,
      {
        body: NATIVE_HELLO_BODY,
        headers,
      },
    );
    expect(streamed.status).toBe(200);
    await harness.settled();

    const text = (await harness.request<string>('GET', '/metrics')).text;
    const [log] = await harness.query<{ input: string; output: string; cost: string }>(
      `select sum(input_tokens)::text as input, sum(output_tokens)::text as output, sum(cost_micros)::text as cost
         from request_logs where key_id = $1`,
      [demo.keyId],
    );
    const model = 'model="kappa-2.0-flash"';
    expect(seriesValue(text, `gateway_tokens_total{${model},direction="input"}`)).toBe(Number(log.input));
    expect(seriesValue(text, `gateway_tokens_total{${model},direction="output"}`)).toBe(Number(log.output));
    expect(seriesValue(text, `gateway_spend_micros_total{${model}}`)).toBe(Number(log.cost));
    // Only the stream has a first byte.
    expect(seriesValue(text, `gateway_stream_first_byte_seconds_count{${model}}`)).toBe(1);
  });

  it('reports its pools, Redis connections and leases, and (as the admin instance) the open tasks', async () => {
    const text = (await harness.request<string>('GET', '/metrics')).text;

    for (const pool of ['serving', 'money']) {
      expect(seriesValue(text, `gateway_pg_pool_connections{pool="${pool}",state="total"}`)).toBeGreaterThan(
        0,
      );
    }
    expect(seriesValue(text, 'gateway_redis_connection_ready{connection="commands"}')).toBe(1);
    expect(seriesValue(text, 'gateway_redis_connection_ready{connection="subscriber"}')).toBe(1);
    expect(seriesValue(text, 'gateway_leases_open')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('# TYPE gateway_tasks_open gauge');
    expect(text).toContain('# TYPE gateway_limit_refusals_total counter');
  });
});
