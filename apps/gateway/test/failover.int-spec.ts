import { GatewayHarness, type GatewayInstance } from './gateway-harness';

interface JournalEntry {
  method: string;
  path: string;
}

const BODY = { contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] };

describe('failover and the circuit breaker', () => {
  let harness: GatewayHarness;
  let second: GatewayInstance;
  let key: string;

  beforeAll(async () => {
    harness = await GatewayHarness.start({
      CIRCUIT_FAILURE_THRESHOLD: '3',
      CIRCUIT_COOLDOWN_MS: '1500',
      CIRCUIT_WINDOW_MS: '30000',
    });
    second = await harness.startInstance();
    const prices = ['fo-503', 'fo-429', 'fo-auth', 'fo-circuit', 'fo-none'].map((model) => ({
      model,
      inputPerMillion: '1000000',
      outputPerMillion: '1000000',
    }));
    await harness.adminOk('PUT', '/admin/prices', { prices });
    const accountId = await harness.createAccount(1_000_000_000n);
    key = (await harness.createKey(accountId)).key;
  });
  afterAll(() => harness.close());

  /** A failing kappa channel (priority 10) and a healthy compat channel (priority 0) for one model. */
  async function channelsFor(model: string, failingBaseUrl: string, failingSecret = 'sim-kappa-key') {
    const failingId = await harness.createChannel({
      type: 'kappa',
      name: `${model}-first`,
      baseUrl: failingBaseUrl,
      secret: failingSecret,
      models: [{ model, upstreamModel: 'kappa-2.0-flash' }],
      priority: 10,
    });
    await harness.createChannel({
      type: 'compat',
      name: `${model}-second`,
      secret: 'sim-compat-key',
      models: [{ model, upstreamModel: 'chat-fast' }],
      priority: 0,
    });
    return failingId;
  }

  const generate = (model: string, baseUrl?: string) =>
    harness.request<Record<string, unknown>>('POST', `/v1beta/models/${model}:generateContent`, {
      body: BODY,
      headers: { 'x-vendor-api-key': key },
      baseUrl,
    });

  async function journal(): Promise<JournalEntry[]> {
    const response = await fetch(`${harness.simulatorUrl}/__sim/requests?limit=200`);
    return (await response.json()) as JournalEntry[];
  }

  const resetJournal = () => fetch(`${harness.simulatorUrl}/__sim/reset`, { method: 'POST' });
  const kappaCalls = (entries: JournalEntry[]) =>
    entries.filter((entry) => entry.path.startsWith('/v1beta/'));
  const compatCalls = (entries: JournalEntry[]) =>
    entries.filter((entry) => entry.path === '/v1/chat/completions');

  it.each([
    ['fo-503', 'error=overload;status=503'],
    ['fo-429', 'error=rate_limit'],
  ])('%s: the first channel fails with %s, the request succeeds on the second', async (model, directive) => {
    await channelsFor(model, `${harness.simulatorUrl}/@${directive}`);
    await resetJournal();
    const answer = await generate(model);
    expect(answer.status).toBe(200);
    expect(answer.body['candidates']).toBeDefined();
    const entries = await journal();
    expect(kappaCalls(entries)).toHaveLength(1);
    expect(compatCalls(entries)).toHaveLength(1);
  });

  it('fo-auth: a channel whose key the upstream refuses is skipped for the next one', async () => {
    await channelsFor('fo-auth', harness.simulatorUrl, 'wrong-channel-secret');
    const answer = await generate('fo-auth');
    expect(answer.status).toBe(200);
  });

  it('opens the circuit on every instance after repeated failures, and closes it after the cool-down', async () => {
    const failingId = await channelsFor('fo-circuit', `${harness.simulatorUrl}/@error=overload`);
    for (let i = 0; i < 3; i += 1) expect((await generate('fo-circuit')).status).toBe(200);

    await resetJournal();
    // Give the pub/sub message a moment to reach the second instance.
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const instance of [harness.url, second.url]) {
      for (let i = 0; i < 3; i += 1) expect((await generate('fo-circuit', instance)).status).toBe(200);
    }
    let entries = await journal();
    expect(kappaCalls(entries)).toHaveLength(0);
    expect(compatCalls(entries)).toHaveLength(6);

    // The channel is repaired; after the cool-down one probe goes through and closes the circuit.
    await harness.adminOk('PATCH', `/admin/channels/${failingId}`, { baseUrl: harness.simulatorUrl });
    await new Promise((resolve) => setTimeout(resolve, 1600));
    await resetJournal();
    expect((await generate('fo-circuit', second.url)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await generate('fo-circuit', harness.url)).status).toBe(200);
    entries = await journal();
    expect(kappaCalls(entries)).toHaveLength(2);
    expect(compatCalls(entries)).toHaveLength(0);
  });

  it('answers 503 in dialect when every candidate failed, and never tries a channel twice', async () => {
    await harness.createChannel({
      type: 'kappa',
      name: 'fo-none-only',
      baseUrl: `${harness.simulatorUrl}/@error=overload`,
      secret: 'sim-kappa-key',
      models: [{ model: 'fo-none', upstreamModel: 'kappa-2.0-flash' }],
    });
    await resetJournal();
    const answer = await generate('fo-none');
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      error: { code: 503, message: expect.stringMatching(/No channel could serve/), status: 'UNAVAILABLE' },
    });
    expect(kappaCalls(await journal())).toHaveLength(1);
  });

  it('counts upstream errors by channel and kind in the metrics', async () => {
    const metrics = await (await fetch(`${harness.url}/metrics`)).text();
    expect(metrics).toMatch(/gateway_upstream_errors_total\{channel="fo-503-first",kind="overload"\} 1/);
    expect(metrics).toMatch(/gateway_upstream_errors_total\{channel="fo-429-first",kind="rate_limit"\} 1/);
    expect(metrics).toMatch(
      /gateway_http_requests_total\{route="\/v1beta\/models\/:modelAction",method="POST",status="200"\}/,
    );
  });
});
