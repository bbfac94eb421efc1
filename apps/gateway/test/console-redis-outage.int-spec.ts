import { waitFor } from '@gateway/testing';
import { fromConsole, signIn } from './console-cookie.client';
import { GatewayHarness } from './gateway-harness';
import { TcpOutageProxy } from './tcp-outage.proxy';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Sessions live in Redis: without it the console is shut (503), the bearer token keeps working. */
describe('console sessions while Redis is away', () => {
  let proxy: TcpOutageProxy;
  let harness: GatewayHarness;

  beforeAll(async () => {
    proxy = await TcpOutageProxy.start(REDIS_URL);
    harness = await GatewayHarness.start({ REDIS_URL: proxy.url(REDIS_URL) });
  });
  afterAll(async () => {
    await harness.close();
    await proxy.close();
  });

  it('fails sign-in and cookie requests closed with 503, keeps the bearer token working, and recovers', async () => {
    const { cookie } = await signIn(harness);
    expect(cookie).toMatch(/^gw_console=/);
    await proxy.cut();
    try {
      const refused = await signIn(harness);
      expect(refused.answer.status).toBe(503);
      expect(refused.answer.headers.get('set-cookie')).toBeNull();
      const withCookie = await harness.request('POST', '/admin/accounts', {
        body: { name: 'during-outage' },
        headers: fromConsole(cookie, harness.url),
      });
      expect(withCookie.status).toBe(503);
      expect((await harness.request('GET', '/admin/session', { headers: { cookie } })).status).toBe(503);
      const bearer = await harness.admin('GET', '/admin/accounts');
      expect(bearer.status).toBe(200);
    } finally {
      await proxy.restore();
    }
    // The session made before the outage is still there once Redis is reachable again.
    await waitFor(
      async () => (await harness.request('GET', '/admin/accounts', { headers: { cookie } })).status === 200,
      15_000,
    );
  });
});
