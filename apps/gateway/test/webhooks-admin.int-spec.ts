import { decryptSecret } from '@gateway/routing';
import { GatewayHarness } from './gateway-harness';

interface EndpointAnswer {
  id: string;
  url: string;
  events: string[];
  accountId: string | null;
  status: string;
  secret?: string;
  previousSecretExpiresAt: string | null;
}

/** The admin API of webhook endpoints: registration checked against the SSRF policy, secrets shown once. */
describe('admin webhooks API', () => {
  let harness: GatewayHarness;
  let accountId: string;

  beforeAll(async () => {
    // 127.0.0.1 stands for an operator's allowed internal receiver; nothing listens there.
    harness = await GatewayHarness.start({ SSRF_ALLOW_HOSTS: '127.0.0.1' });
    accountId = await harness.createAccount(0n);
  });
  afterAll(() => harness.close());

  /** Each secret shown is remembered: the log scan at the end checks no log line carries it. */
  async function register(body: Record<string, unknown>): Promise<EndpointAnswer> {
    const created = await harness.adminOk<EndpointAnswer>('POST', '/admin/webhooks', body);
    if (created.secret) harness.rememberSecret(created.secret);
    return created;
  }

  it('registers an endpoint, shows its whsec_ secret once and stores it encrypted', async () => {
    const created = await register({
      url: 'http://127.0.0.1:9/hook',
      events: ['video.completed'],
      accountId,
    });
    expect(created).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      events: ['video.completed'],
      accountId,
      status: 'enabled',
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const [row] = await harness.query<{ secret_ciphertext: string; secret_key_version: number }>(
      'select secret_ciphertext, secret_key_version from webhook_endpoints where id = $1',
      [created.id],
    );
    expect(row.secret_ciphertext).not.toContain(String(created.secret).slice(6, 20));
    expect(decryptSecret(row.secret_ciphertext, row.secret_key_version, harness.config.masterKeys.keys)).toBe(
      created.secret,
    );
    const shown = await harness.adminOk<EndpointAnswer>('GET', `/admin/webhooks/${created.id}`);
    expect(shown).not.toHaveProperty('secret');
    const listed = await harness.adminOk<EndpointAnswer[]>('GET', '/admin/webhooks');
    expect(listed.map((endpoint) => endpoint.id)).toContain(created.id);
    expect(listed.every((endpoint) => endpoint.secret === undefined)).toBe(true);
  });

  it.each([
    ['a private address', 'http://10.0.0.1/hook'],
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['a loopback port the allow-list does not name', 'http://[::1]:9/hook'],
    ['a host that does not resolve', 'https://no-such-host.invalid/hook'],
    ['another scheme', 'ftp://127.0.0.1/hook'],
  ])('refuses %s at registration with a 400', async (_name, url) => {
    const answer = await harness.admin<{ error: { param?: string } }>('POST', '/admin/webhooks', {
      url,
      events: ['video.completed'],
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('url');
  });

  it.each([
    ['an unknown event', { url: 'http://127.0.0.1:9/a', events: ['video.exploded'] }],
    ['no events', { url: 'http://127.0.0.1:9/a', events: [] }],
    [
      'an unknown account',
      { url: 'http://127.0.0.1:9/a', events: ['asset.active'], accountId: 'acct_missing' },
    ],
    ['a misspelt field', { url: 'http://127.0.0.1:9/a', events: ['asset.active'], event: 'x' }],
  ])('refuses %s with a 400', async (_name, body) => {
    expect((await harness.admin('POST', '/admin/webhooks', body)).status).toBe(400);
  });

  it('changes, rotates and deletes an endpoint; unknown ids are 404s', async () => {
    const created = await register({ url: 'http://127.0.0.1:9/hook', events: ['music.failed'] });
    const changed = await harness.adminOk<EndpointAnswer>('PATCH', `/admin/webhooks/${created.id}`, {
      events: ['music.failed', 'music.completed'],
      accountId,
      status: 'disabled',
    });
    expect(changed).toMatchObject({
      events: ['music.failed', 'music.completed'],
      accountId,
      status: 'disabled',
    });
    expect(
      (await harness.admin('PATCH', `/admin/webhooks/${created.id}`, { url: 'http://10.1.2.3/' })).status,
    ).toBe(400);

    const rotated = await harness.adminOk<EndpointAnswer>(
      'POST',
      `/admin/webhooks/${created.id}/rotate-secret`,
    );
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    const graceEnds = Date.parse(rotated.previousSecretExpiresAt ?? '');
    expect(graceEnds - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const [row] = await harness.query<{
      previous_secret_ciphertext: string;
      previous_secret_key_version: number;
    }>(
      'select previous_secret_ciphertext, previous_secret_key_version from webhook_endpoints where id = $1',
      [created.id],
    );
    expect(
      decryptSecret(
        row.previous_secret_ciphertext,
        row.previous_secret_key_version,
        harness.config.masterKeys.keys,
      ),
    ).toBe(created.secret);

    expect((await harness.admin('DELETE', `/admin/webhooks/${created.id}`)).status).toBe(204);
    expect((await harness.admin('GET', `/admin/webhooks/${created.id}`)).status).toBe(404);
    expect((await harness.admin('DELETE', `/admin/webhooks/${created.id}`)).status).toBe(404);
    expect((await harness.admin('GET', '/admin/webhooks/not-an-id/deliveries')).status).toBe(404);
    expect((await harness.admin('POST', `/admin/webhooks/${created.id}/rotate-secret`)).status).toBe(404);
  });

  it('lists deliveries with their attempts, and redelivers one under the same id', async () => {
    const created = await register({ url: 'http://127.0.0.1:9/hook', events: ['video.failed'] });
    // The outbox as a task's terminal transition writes it, and one failed attempt (nothing listens).
    await harness.query(
      `insert into webhook_events (id, type, account_id, subject_id) values ('evt_admin_1', 'video.failed', $1, 'video_x')`,
      [accountId],
    );
    const deliveryId = `msg_${'a'.repeat(32)}`;
    await harness.query(
      `insert into webhook_deliveries (id, event_id, endpoint_id, status, attempts) values ($1, 'evt_admin_1', $2, 'failed', 1)`,
      [deliveryId, created.id],
    );
    await harness.query(
      `insert into webhook_attempts (delivery_id, status_code, latency_ms, error) values ($1, null, 3, 'unreachable: fetch failed (ECONNREFUSED)')`,
      [deliveryId],
    );
    const deliveries = await harness.adminOk<Array<Record<string, unknown>>>(
      'GET',
      `/admin/webhooks/${created.id}/deliveries?limit=10`,
    );
    expect(deliveries).toEqual([
      expect.objectContaining({
        id: deliveryId,
        eventId: 'evt_admin_1',
        eventType: 'video.failed',
        status: 'failed',
        attempts: [
          expect.objectContaining({
            statusCode: null,
            latencyMs: 3,
            error: expect.stringContaining('ECONNREFUSED'),
          }),
        ],
      }),
    ]);
    const answer = await harness.admin<Record<string, unknown>>(
      'POST',
      `/admin/webhooks/${created.id}/deliveries/${deliveryId}/redeliver`,
    );
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ id: deliveryId, status: 'pending' });
    expect(
      (
        await harness.admin(
          'POST',
          `/admin/webhooks/${created.id}/deliveries/msg_${'b'.repeat(32)}/redeliver`,
        )
      ).status,
    ).toBe(404);
    expect((await harness.admin('GET', `/admin/webhooks/${created.id}/deliveries?limit=0`)).status).toBe(400);
  });

  it('is closed to inference keys', async () => {
    const { key } = await harness.createKey(accountId);
    const answer = await harness.request('GET', '/admin/webhooks', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(answer.status).toBe(403);
  });
});
