import { setTimeout as sleep } from 'node:timers/promises';
import { fromConsole, parseSetCookie, signIn } from './console-cookie.client';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';

interface ErrorBody {
  error: { message: string; type: string; code: string };
}

describe('console sessions: POST/GET/DELETE /admin/session and the cookie on /admin', () => {
  let harness: GatewayHarness;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
  });
  afterAll(() => harness.close());

  it('trades the admin token for an HttpOnly, SameSite=Strict cookie holding a random id, not the token', async () => {
    const { answer } = await signIn(harness);
    expect(answer.status).toBe(204);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const cookie = parseSetCookie(answer.headers.get('set-cookie'));
    expect(cookie.name).toBe('gw_console');
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie.value).not.toContain(harness.adminToken);
    expect(cookie.attributes.has('httponly')).toBe(true);
    expect(cookie.attributes.get('samesite')).toBe('Strict');
    expect(cookie.attributes.get('path')).toBe('/');
    expect(cookie.attributes.get('max-age')).toBe('28800');
    // Plain HTTP: a Secure cookie would never be sent back.
    expect(cookie.attributes.has('secure')).toBe(false);
    // Two sign-ins, two sessions.
    const again = parseSetCookie((await signIn(harness)).answer.headers.get('set-cookie'));
    expect(again.value).not.toBe(cookie.value);
  });

  it('opens every admin route with the cookie and says when the session ends', async () => {
    const before = Date.now();
    const { cookie } = await signIn(harness);
    const session = await harness.request<{ expiresAt: string }>('GET', '/admin/session', {
      headers: { cookie },
    });
    expect(session.status).toBe(200);
    const expiresAt = Date.parse(session.body.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 28_800_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 28_800_000);

    const accounts = await harness.request('GET', '/admin/accounts', { headers: { cookie } });
    expect(accounts.status).toBe(200);
    const created = await harness.request<{ id: string }>('POST', '/admin/accounts', {
      body: { name: 'made-from-the-console' },
      headers: fromConsole(cookie, harness.url),
    });
    expect(created.status).toBe(201);
  });

  it('refuses a wrong token (401), an inference key (403) and a body without a token (400), setting no cookie', async () => {
    const wrong = await signIn(harness, { token: 'not-the-admin-token-at-all' });
    expect(wrong.answer.status).toBe(401);
    expect((wrong.answer.body as ErrorBody).error.message).toBe('The admin token is not valid.');
    expect(wrong.answer.headers.get('set-cookie')).toBeNull();

    const accountId = await harness.createAccount(0n);
    const { key } = await harness.createKey(accountId);
    const inference = await signIn(harness, { token: key });
    expect(inference.answer.status).toBe(403);
    expect(inference.answer.headers.get('set-cookie')).toBeNull();
    const keyOnAdmin = await harness.request('GET', '/admin/accounts', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(keyOnAdmin.status).toBe(403);
    // An inference key in the cookie is no session either.
    const keyAsCookie = await harness.request('GET', '/admin/accounts', {
      headers: { cookie: `gw_console=${key}` },
    });
    expect(keyAsCookie.status).toBe(401);

    for (const body of [{}, { token: 42 }, { token: '' }, ['token'], 'token']) {
      const answer = await harness.request('POST', '/admin/session', { body });
      expect([answer.status, answer.headers.get('set-cookie')]).toEqual([400, null]);
    }
  });

  it('refuses a cookie-authenticated change from another origin (403) and lets the same origin through', async () => {
    const { cookie } = await signIn(harness);
    const create = (headers: Record<string, string>) =>
      harness.request<ErrorBody>('POST', '/admin/accounts', { body: { name: 'csrf-target' }, headers });
    const foreign: Record<string, string>[] = [
      { cookie, origin: 'http://attacker.example' },
      { cookie, origin: harness.url.replace('127.0.0.1', 'localhost') },
      { cookie, origin: 'null' },
      { cookie, origin: 'null', 'sec-fetch-site': 'cross-site' },
      { cookie, 'sec-fetch-site': 'cross-site' },
      { cookie, 'sec-fetch-site': 'same-site' },
      { cookie, referer: 'http://attacker.example/page' },
      // No Origin, no Referer: no browser page sends that on a POST.
      { cookie },
    ];
    for (const headers of foreign) {
      const answer = await create(headers);
      expect([answer.status, answer.body.error?.type]).toEqual([403, expect.any(String)]);
    }
    const accounts = await harness.query<{ n: number }>(
      "select count(*)::int as n from accounts where name = 'csrf-target'",
    );
    expect(accounts[0].n).toBe(0);

    // The console's own pages: Origin, or Origin null under no-referrer with Sec-Fetch-Site, or Referer.
    const own: Record<string, string>[] = [
      { cookie, origin: harness.url },
      { cookie, origin: 'null', 'sec-fetch-site': 'same-origin' },
      { cookie, 'sec-fetch-site': 'same-origin' },
      { cookie, referer: `${harness.url}/console/accounts` },
    ];
    for (const headers of own) expect((await create(headers)).status).toBe(201);
    // Reads from anywhere are not refused by the origin check (SameSite keeps the cookie home, and
    // another origin cannot read the answer); a bearer token is never checked for origin.
    const read = await harness.request('GET', '/admin/accounts', {
      headers: { cookie, origin: 'http://attacker.example' },
    });
    expect(read.status).toBe(200);
    const bearer = await harness.request('POST', '/admin/accounts', {
      body: { name: 'script' },
      headers: { authorization: `Bearer ${harness.adminToken}`, origin: 'http://attacker.example' },
    });
    expect(bearer.status).toBe(201);
  });

  it('signs out: the session ends, the cookie is cleared and no longer opens /admin', async () => {
    const { cookie } = await signIn(harness);
    const foreignSignOut = await harness.request('DELETE', '/admin/session', {
      headers: { cookie, origin: 'http://attacker.example' },
    });
    expect(foreignSignOut.status).toBe(403);
    expect((await harness.request('GET', '/admin/session', { headers: { cookie } })).status).toBe(200);

    const out = await harness.request('DELETE', '/admin/session', {
      headers: fromConsole(cookie, harness.url),
    });
    expect(out.status).toBe(204);
    const cleared = parseSetCookie(out.headers.get('set-cookie'));
    expect([cleared.name, cleared.value, cleared.attributes.get('max-age')]).toEqual(['gw_console', '', '0']);

    expect((await harness.request('GET', '/admin/session', { headers: { cookie } })).status).toBe(401);
    const after = await harness.request<ErrorBody>('GET', '/admin/accounts', { headers: { cookie } });
    expect(after.status).toBe(401);
    expect(after.body.error.message).toContain('sign in again');
    // Signing out without a session is not an error.
    expect((await harness.request('DELETE', '/admin/session')).status).toBe(204);
  });

  it('answers GET /admin/session 401 without a cookie or with a made-up one', async () => {
    for (const cookie of [undefined, 'gw_console=' + 'A'.repeat(43), 'gw_console=%00%ff', 'gw_console=']) {
      const answer = await harness.request('GET', '/admin/session', { headers: cookie ? { cookie } : {} });
      expect(answer.status).toBe(401);
    }
  });

  describe('with other instances', () => {
    let https: GatewayInstance;
    let shortLived: GatewayInstance;
    let throttled: GatewayInstance;

    beforeAll(async () => {
      https = await harness.startInstance({
        clientConnections: { ...harness.config.clientConnections, trustProxy: true },
      });
      shortLived = await harness.startInstance({
        console: { ...harness.config.console, sessionTtlSeconds: 1 },
      });
      throttled = await harness.startInstance({
        authFailureLimit: 2,
        clientConnections: { ...harness.config.clientConnections, trustProxy: true },
      });
    });

    it('marks the cookie Secure when the request came over HTTPS through a trusted proxy, and only then', async () => {
      const viaProxy = await signIn(harness, {
        baseUrl: https.url,
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(parseSetCookie(viaProxy.answer.headers.get('set-cookie')).attributes.has('secure')).toBe(true);
      // The same header from a client no TRUST_PROXY names is ignored.
      const direct = await signIn(harness, { headers: { 'x-forwarded-proto': 'https' } });
      expect(parseSetCookie(direct.answer.headers.get('set-cookie')).attributes.has('secure')).toBe(false);
      // Behind the proxy the console's origin is https://: that Origin is its own.
      const port = new URL(https.url).port;
      const created = await harness.request('POST', '/admin/accounts', {
        baseUrl: https.url,
        body: { name: 'over-https' },
        headers: {
          cookie: viaProxy.cookie,
          'x-forwarded-proto': 'https',
          origin: `https://127.0.0.1:${port}`,
        },
      });
      expect(created.status).toBe(201);
    });

    it('shares sessions between instances: a sign-in and a sign-out count everywhere', async () => {
      const { cookie } = await signIn(harness, { baseUrl: https.url });
      expect((await harness.request('GET', '/admin/accounts', { headers: { cookie } })).status).toBe(200);
      await harness.request('DELETE', '/admin/session', {
        baseUrl: https.url,
        headers: fromConsole(cookie, https.url),
      });
      expect((await harness.request('GET', '/admin/accounts', { headers: { cookie } })).status).toBe(401);
    });

    it('refuses a session past CONSOLE_SESSION_TTL', async () => {
      const { cookie, answer } = await signIn(harness, { baseUrl: shortLived.url });
      expect(parseSetCookie(answer.headers.get('set-cookie')).attributes.get('max-age')).toBe('1');
      expect(
        (await harness.request('GET', '/admin/accounts', { baseUrl: shortLived.url, headers: { cookie } }))
          .status,
      ).toBe(200);
      await sleep(1_500);
      const expired = await harness.request('GET', '/admin/accounts', {
        baseUrl: shortLived.url,
        headers: { cookie },
      });
      expect(expired.status).toBe(401);
      expect((await harness.request('GET', '/admin/session', { headers: { cookie } })).status).toBe(401);
    });

    it('counts wrong sign-in tokens with the auth-failure throttle: 429 past its limit', async () => {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 4; attempt += 1) {
        // An address of its own: the throttle counts per client address, across instances.
        const { answer } = await signIn(harness, {
          baseUrl: throttled.url,
          token: `wrong-token-${attempt}-padding`,
          headers: { 'x-forwarded-for': '203.0.113.7' },
        });
        statuses.push(answer.status);
      }
      expect(statuses.slice(0, 2)).toEqual([401, 401]);
      expect(statuses.slice(2)).toEqual([429, 429]);
    });
  });
});
