import type { GatewayConfig } from '@gateway/config';
import { CircuitBreaker } from '@gateway/routing';
import { startSimulator, type JournalEntry, type RunningSimulator } from '@gateway/simulators';
import { CONFIG } from '../../platform/infrastructure/tokens';
import { startAdminApp, type AdminApp } from '../testing/admin-app.fixture';

/** A key the simulators refuse: the upstream's own auth failure, classified by the compat adapter. */
const WRONG_SECRET = 'sk-wrong-channel-secret-7f3a9c';

let admin: AdminApp;
let simulator: RunningSimulator;

beforeAll(async () => {
  [admin, simulator] = await Promise.all([startAdminApp(), startSimulator()]);
});

afterAll(async () => {
  await admin?.close();
  await simulator?.close();
});

async function createChannel(fields: Record<string, unknown>): Promise<string> {
  const reply = await admin.call('POST', '/admin/channels', { baseUrl: simulator.url, ...fields });
  expect(reply.status).toBe(201);
  return reply.body['id'] as string;
}

async function lastSimulatorRequest(): Promise<JournalEntry> {
  const entries = (await (await fetch(`${simulator.url}/__sim/requests?limit=1`)).json()) as JournalEntry[];
  return entries[entries.length - 1];
}

describe('POST /admin/channels/{id}/test', () => {
  it('makes a 1-token generation through a text channel, timed, billing and logging nothing', async () => {
    const id = await createChannel({
      type: 'kappa',
      name: 'kappa-tested',
      // The simulator waits 15 ms before answering: the latency is the upstream call's.
      baseUrl: `${simulator.url}/@latency=15`,
      secret: 'sim-kappa-key',
      models: [{ model: 'kappa-2.0-flash' }],
    });
    const reply = await admin.call('POST', `/admin/channels/${id}/test`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      ok: true,
      latencyMs: expect.any(Number),
      model: 'kappa-2.0-flash',
      capability: 'text',
    });
    expect(reply.body['latencyMs']).toBeGreaterThanOrEqual(15);
    const upstream = await lastSimulatorRequest();
    expect(upstream.path).toBe('/v1beta/models/kappa-2.0-flash:generateContent');
    expect(upstream.authenticated).toBe(true);
    expect(JSON.parse(upstream.body).generationConfig).toEqual({ maxOutputTokens: 1 });
    expect(await admin.prisma.requestLog.count({ where: { channelId: id } })).toBe(0);
    expect(await admin.prisma.ledgerEntry.count()).toBe(0);
  });

  it("answers the upstream's auth failure by its adapter's kind, without the secret, and leaves the circuit closed", async () => {
    const id = await createChannel({
      type: 'compat',
      name: 'compat-wrong-key',
      secret: WRONG_SECRET,
      models: [{ model: 'compat-chat', upstreamModel: 'compat-chat-001' }],
    });
    const threshold = admin.get<GatewayConfig>(CONFIG).circuitFailureThreshold;
    for (let attempt = 0; attempt <= threshold; attempt += 1) {
      const reply = await admin.call('POST', `/admin/channels/${id}/test`, { model: 'compat-chat' });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ ok: false, model: 'compat-chat', capability: 'text', status: 401 });
      expect(reply.body['error']).toEqual({ kind: 'auth', message: expect.any(String) });
      expect(JSON.stringify(reply.body)).not.toContain(WRONG_SECRET);
    }
    const upstream = await lastSimulatorRequest();
    expect(upstream.authenticated).toBe(false);
    expect(JSON.parse(upstream.body)).toMatchObject({ model: 'compat-chat-001', max_tokens: 1 });
    const channel = await admin.call('GET', `/admin/channels/${id}`);
    expect(channel.body['circuit']).toEqual({ state: 'closed' });
  });

  it('skips a type whose adapters have no free call, saying why', async () => {
    const id = await createChannel({
      type: 'alpha',
      name: 'alpha-video',
      secret: 'sim-alpha-key',
      models: [{ model: 'alpha-video-1' }],
    });
    const reply = await admin.call('POST', `/admin/channels/${id}/test`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      ok: null,
      capability: 'task',
      skipped: expect.stringContaining('no text capability'),
    });
  });

  it('refuses a model the channel does not offer as a 400 naming model', async () => {
    const id = await createChannel({
      type: 'kappa',
      name: 'kappa-model-check',
      secret: 'sim-kappa-key',
      models: [{ model: 'kappa-2.0-flash' }],
    });
    const reply = await admin.call('POST', `/admin/channels/${id}/test`, { model: 'kappa-absent' });
    expect(reply.status).toBe(400);
    expect(reply.body.error?.param).toBe('model');
  });

  it('answers 404 for an unknown id and 400 naming id for a NUL in it', async () => {
    const unknown = await admin.call('POST', '/admin/channels/ch_unknown/test');
    expect(unknown.status).toBe(404);
    const nul = await admin.call('POST', '/admin/channels/ch%00x/test');
    expect(nul.status).toBe(400);
    expect(nul.body.error?.param).toBe('id');
  });
});

describe('channel health in GET /admin/channels', () => {
  it('shows a circuit open, with its opening time, once failures trip it', async () => {
    const id = await createChannel({
      type: 'compat',
      name: 'compat-tripped',
      secret: 'sim-compat-key',
      models: [{ model: 'compat-chat' }],
    });
    const breaker = admin.get(CircuitBreaker);
    const before = Date.now();
    for (let failure = 0; failure < admin.get<GatewayConfig>(CONFIG).circuitFailureThreshold; failure += 1) {
      await breaker.recordFailure(id, 'overload');
    }
    const list = await admin.call('GET', '/admin/channels');
    const listed = (list.body as unknown as Record<string, unknown>[]).find(
      (channel) => channel['id'] === id,
    );
    expect(listed?.['circuit']).toEqual({ state: 'open', openedAt: expect.any(String) });
    const openedAt = Date.parse((listed?.['circuit'] as { openedAt: string }).openedAt);
    expect(openedAt).toBeGreaterThanOrEqual(before);
    expect(openedAt).toBeLessThanOrEqual(Date.now());
  });

  it('computes the recent error rate from the request log of the window, per channel', async () => {
    const id = await createChannel({
      type: 'kappa',
      name: 'kappa-logged',
      secret: 'sim-kappa-key',
      models: [{ model: 'kappa-2.0-flash' }],
    });
    const quiet = await createChannel({
      type: 'kappa',
      name: 'kappa-quiet',
      secret: 'sim-kappa-key',
      models: [{ model: 'kappa-2.0-flash' }],
    });
    const now = Date.now();
    const rows: { endReason: string; minutesAgo: number; channelId: string }[] = [
      { endReason: 'completed', minutesAgo: 1, channelId: id },
      { endReason: 'completed', minutesAgo: 2, channelId: id },
      { endReason: 'client_disconnect', minutesAgo: 3, channelId: id },
      { endReason: 'upstream_error', minutesAgo: 4, channelId: id },
      // A task the gateway lost counts; a cancelled one (client, operator or upstream) does not.
      { endReason: 'task_failed', minutesAgo: 5, channelId: id },
      { endReason: 'cancelled', minutesAgo: 6, channelId: id },
      // Outside the 15-minute window: not counted.
      { endReason: 'upstream_error', minutesAgo: 20, channelId: id },
      { endReason: 'upstream_error', minutesAgo: 30, channelId: quiet },
    ];
    await admin.prisma.requestLog.createMany({
      data: rows.map((row, index) => ({
        requestId: `req_health_${index}`,
        model: 'kappa-2.0-flash',
        channelId: row.channelId,
        route: '/v1/chat/completions',
        httpStatus: row.endReason === 'upstream_error' ? 502 : 200,
        endReason: row.endReason,
        latencyMs: 10,
        createdAt: new Date(now - row.minutesAgo * 60_000),
      })),
    });
    const list = await admin.call('GET', '/admin/channels');
    const byId = new Map(
      (list.body as unknown as Record<string, unknown>[]).map((channel) => [channel['id'], channel]),
    );
    expect(byId.get(id)?.['recentErrors']).toEqual({
      windowMinutes: 15,
      requests: 6,
      errors: 2,
      errorRate: 2 / 6,
    });
    expect(byId.get(quiet)?.['recentErrors']).toEqual({
      windowMinutes: 15,
      requests: 0,
      errors: 0,
      errorRate: 0,
    });
    expect(byId.get(quiet)?.['circuit']).toEqual({ state: 'closed' });
    const one = await admin.call('GET', `/admin/channels/${id}`);
    expect(one.body['recentErrors']).toEqual(byId.get(id)?.['recentErrors']);
  });
});
