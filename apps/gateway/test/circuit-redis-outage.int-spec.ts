import { setTimeout as sleep } from 'node:timers/promises';
import { GatewayHarness } from './gateway-harness';
import { outageStep } from './outage-step';
import { TcpOutageProxy } from './tcp-outage.proxy';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BODY = { contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] };
const COOLDOWN_MS = 1000;

/**
 * A channel whose circuit is half-open when Redis goes away: the probe slot cannot be claimed, so the
 * request moves on to the next channel at once. The gateway's Redis connections queue commands
 * through an outage, and an unbounded claim held the request until Redis was back.
 */
describe('a half-open circuit through a Redis outage', () => {
  let proxy: TcpOutageProxy;
  let harness: GatewayHarness;
  let key: string;

  beforeAll(async () => {
    proxy = await TcpOutageProxy.start(REDIS_URL);
    harness = await GatewayHarness.start({
      REDIS_URL: proxy.url(REDIS_URL),
      CIRCUIT_FAILURE_THRESHOLD: '3',
      CIRCUIT_COOLDOWN_MS: String(COOLDOWN_MS),
      CIRCUIT_WINDOW_MS: '30000',
    });
    await harness.adminOk('PUT', '/admin/prices', {
      prices: [{ model: 'co-circuit', inputPerMillion: '1000000', outputPerMillion: '1000000' }],
    });
    key = (await harness.createKey(await harness.createAccount(1_000_000_000n))).key;
    await harness.createChannel({
      type: 'kappa',
      name: 'co-failing',
      baseUrl: `${harness.simulatorUrl}/@error=overload`,
      secret: 'sim-kappa-key',
      models: [{ model: 'co-circuit', upstreamModel: 'kappa-2.0-flash' }],
      priority: 10,
    });
    await harness.createChannel({
      type: 'compat',
      name: 'co-healthy',
      secret: 'sim-compat-key',
      models: [{ model: 'co-circuit', upstreamModel: 'chat-fast' }],
      priority: 0,
    });
  });
  afterAll(async () => {
    await harness?.close();
    await proxy?.close();
  });

  const generate = () =>
    harness.request('POST', '/v1beta/models/co-circuit:generateContent', {
      body: BODY,
      headers: { 'x-vendor-api-key': key },
    });

  it('serves from the next channel at once instead of waiting for Redis to claim the probe', async () => {
    // Three overloads open the failing channel's circuit; each request is served by the healthy one.
    for (let i = 0; i < 3; i += 1) expect((await generate()).status).toBe(200);
    await sleep(COOLDOWN_MS + 200);

    await proxy.cut();
    try {
      const started = Date.now();
      const answer = await outageStep(harness, 'the request to the half-open channel', generate(), 10_000);
      expect(answer.status).toBe(200);
      // Refused at once (the connection is not ready), or after the 250 ms bound at worst.
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(harness.logs.some((line) => line.includes('circuit probe not claimed'))).toBe(true);
    } finally {
      await proxy.restore();
    }
  });
});
