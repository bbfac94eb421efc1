import { GatewayHarness, type HttpAnswer } from './gateway-harness';
import { ETA_CONTROL_KEY, seedThetaChannel, simulatorRequests, ThetaClient } from './theta-demo';

const CHANNEL_SECRET = 'channel-secret-do-not-leak-7f3a9c';
/** The secret half of the eta channel's control-plane key, a secret setting. */
const CONTROL_PLANE_SECRET = ETA_CONTROL_KEY.split('|')[1];

interface EtaChannelView {
  weight: number;
  settings: { controlPlaneUrl: string; controlPlaneKey: string };
}

describe('secrets never leave the gateway', () => {
  let harness: GatewayHarness;
  const adminAnswers: string[] = [];
  let plaintextKeys: string[] = [];
  let etaChannelId: string;
  let etaViews: HttpAnswer<EtaChannelView>[];
  let assetCall: HttpAnswer<{ GroupId?: string }>;

  beforeAll(async () => {
    harness = await GatewayHarness.start({ LOG_LEVEL: 'debug' });

    await harness.adminOk('PUT', '/admin/prices', {
      prices: [{ model: 'secret-model', inputPerMillion: '1000', outputPerMillion: '1000' }],
    });
    const created = await harness.admin<{ id: string }>('POST', '/admin/channels', {
      type: 'compat',
      name: 'secret-channel',
      baseUrl: harness.simulatorUrl,
      secret: CHANNEL_SECRET,
      models: [{ model: 'secret-model', upstreamModel: 'chat-fast' }],
    });
    harness.rememberSecret(CHANNEL_SECRET);
    adminAnswers.push(created.text);
    const accountId = await harness.createAccount(1_000_000n);
    const keys = await Promise.all([harness.createKey(accountId), harness.createKey(accountId)]);
    plaintextKeys = keys.map((key) => key.key);

    // Traffic that exercises the logs: successes, the channel refusing its (wrong) secret, bad keys.
    for (const key of plaintextKeys) {
      await harness.request('POST', '/v1/chat/completions', {
        body: { model: 'secret-model', messages: [{ role: 'user', content: 'hi' }] },
        headers: { authorization: `Bearer ${key}` },
      });
      await harness.request('POST', `/v1beta/models/secret-model:generateContent?key=${key}`, {
        body: { contents: [{ parts: [{ text: 'hi' }] }] },
      });
    }
    await harness.request('POST', '/v1/chat/completions', {
      body: { model: 'secret-model', messages: [{ role: 'user', content: 'x' }] },
      headers: { authorization: `Bearer ${plaintextKeys[0]}x` },
    });
    for (const path of ['/admin/channels', `/admin/channels/${created.body.id}`, '/admin/keys']) {
      adminAnswers.push((await harness.admin('GET', path)).text);
    }
    adminAnswers.push(
      (await harness.admin('PATCH', `/admin/channels/${created.body.id}`, { secret: `${CHANNEL_SECRET}-2` }))
        .text,
    );
    harness.rememberSecret(`${CHANNEL_SECRET}-2`);

    // An eta channel whose control-plane key is a secret setting: shown, then changed without the key.
    etaChannelId = await seedThetaChannel(harness);
    const controlPlaneUrl = `${harness.simulatorUrl}/eta-control`;
    etaViews = [
      await harness.admin<EtaChannelView>('GET', `/admin/channels/${etaChannelId}`),
      await harness.admin<EtaChannelView>('PATCH', `/admin/channels/${etaChannelId}`, {
        settings: { controlPlaneUrl },
        weight: 3,
      }),
    ];
    adminAnswers.push(...etaViews.map((answer) => answer.text));
    assetCall = await new ThetaClient(harness, harness.url, plaintextKeys[0]).action('CreateAssetGroup', {
      Name: 'sealed-settings',
    });
    await harness.settled();
  });
  afterAll(async () => {
    await harness.close();
  });

  it('stores neither the channel secret nor any plaintext key in the database', async () => {
    const tables = await harness.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
    );
    expect(tables.length).toBeGreaterThan(5);
    let dump = '';
    for (const { table_name } of tables) {
      const rows = await harness.query<{ row: string }>(
        `select row_to_json(t)::text as row from "${table_name}" t`,
      );
      dump += rows.map((row) => row.row).join('\n');
    }
    expect(dump).toContain('secret-channel');
    expect(dump).not.toContain(CHANNEL_SECRET);
    expect(dump).not.toContain(CONTROL_PLANE_SECRET);
    for (const key of plaintextKeys) {
      expect(dump).not.toContain(key);
      expect(dump).toContain(key.slice(0, 11));
    }
  });

  it('shows the secret in no admin response, only a masked tail', () => {
    const all = adminAnswers.join('\n');
    expect(all).not.toContain(CHANNEL_SECRET);
    expect(all).not.toContain(CONTROL_PLANE_SECRET);
    expect(all).toMatch(/"secretMasked":"••••[^"]{4}"/);
    for (const key of plaintextKeys) expect(all).not.toContain(key);
  });

  it('writes neither the secret nor any key into the logs', () => {
    const logs = harness.logs.join('');
    expect(logs).toMatch(/"route":"\/v1\/chat\/completions"/);
    expect(logs).not.toContain(CHANNEL_SECRET);
    expect(logs).not.toContain(CONTROL_PLANE_SECRET);
    for (const key of plaintextKeys) expect(logs).not.toContain(key);
  });

  it("stores a channel type's secret setting sealed, shows it masked, and keeps it through a change that omits it", async () => {
    const [stored] = await harness.query<{ settings: { controlPlaneKey: unknown } }>(
      'select settings from channels where id = $1',
      [etaChannelId],
    );
    expect(stored.settings.controlPlaneKey).toEqual({
      $encrypted: expect.any(String),
      keyVersion: harness.config.masterKeys.currentVersion,
      tail: ETA_CONTROL_KEY.slice(-4),
    });

    const [shown, changed] = etaViews;
    expect(shown.body.settings).toEqual({
      controlPlaneUrl: `${harness.simulatorUrl}/eta-control`,
      controlPlaneKey: `••••${ETA_CONTROL_KEY.slice(-4)}`,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ weight: 3, settings: shown.body.settings });
  });

  it('signs control-plane calls with the kept key after the change', async () => {
    expect(assetCall.status).toBe(200);
    expect(assetCall.body.GroupId).toEqual(expect.any(String));
    const calls = await simulatorRequests(harness, '/eta-control/');
    expect(calls.map((call) => [call.query['Action'], call.authenticated])).toEqual([
      ['CreateAssetGroup', true],
    ]);
  });
});
