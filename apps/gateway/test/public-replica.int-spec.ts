import { ModulesContainer } from '@nestjs/core';
import { waitFor } from '@gateway/testing';
import { AdminModule } from '../src/admin/admin.module';
import {
  GatewayHarness,
  NATIVE_GENERATE_PATH,
  NATIVE_HELLO_BODY,
  type GatewayInstance,
  type TextDemo,
} from './gateway-harness';

/**
 * A public replica (ADMIN_API_ENABLED=false) beside an instance that serves /admin, the production
 * topology the README recommends (Security). The replica serves traffic configured through the other.
 */
describe('a gateway replica without the admin API', () => {
  let harness: GatewayHarness;
  let demo: TextDemo;
  let replica: GatewayInstance;

  beforeAll(async () => {
    harness = await GatewayHarness.start({ KEY_CACHE_TTL_MS: '60000' });
    demo = await harness.seedTextDemo();
    replica = await harness.startInstance({ adminApiEnabled: false, adminToken: '' });
  });
  afterAll(() => harness.close());

  const onReplica = (key: string, body: unknown = NATIVE_HELLO_BODY) =>
    harness.request<{ candidates?: unknown[] }>('POST', NATIVE_GENERATE_PATH, {
      body,
      headers: { 'x-vendor-api-key': key },
      baseUrl: replica.url,
    });

  it('serves generation with the keys, channels and prices the admin instance wrote, and bills it', async () => {
    const answer = await onReplica(demo.key);

    expect(answer.status).toBe(200);
    expect(answer.body.candidates).toHaveLength(1);
    await harness.settled();
    const [log] = await harness.query<{ end_reason: string; cost_micros: string; channel_id: string }>(
      'select end_reason, cost_micros::text, channel_id from request_logs where request_id = $1',
      [answer.headers.get('x-request-id')],
    );
    expect(log).toMatchObject({ end_reason: 'completed', channel_id: demo.kappaChannelId });
    expect(BigInt(log.cost_micros)).toBeGreaterThan(0n);
  });

  it('logs a request it refuses before any hold', async () => {
    const answer = await onReplica(demo.key, { contents: 'not a list' });

    expect(answer.status).toBe(400);
    await harness.settled();
    const rows = await harness.query<{ key_id: string; http_status: number; end_reason: string }>(
      'select key_id, http_status, end_reason from request_logs where request_id = $1',
      [answer.headers.get('x-request-id')],
    );
    expect(rows).toEqual([{ key_id: demo.keyId, http_status: 400, end_reason: 'refused' }]);
  });

  const servesAdmin = (instance: GatewayInstance) =>
    [...instance.app.app.get(ModulesContainer).values()].some((module) => module.metatype === AdminModule);

  it('has no /admin routes, not even for the admin token, and no admin module (nor its Prisma client)', async () => {
    const listChannels = await harness.request('GET', '/admin/channels', {
      headers: { authorization: `Bearer ${harness.adminToken}` },
      baseUrl: replica.url,
    });

    expect(listChannels.status).toBe(404);
    expect(servesAdmin(replica)).toBe(false);
    expect(servesAdmin(await harness.startInstance())).toBe(true);
  });

  it("leaves the deployment's queue depths to the admin instance's /metrics", async () => {
    const onReplica = await harness.request('GET', '/metrics', { baseUrl: replica.url });
    const onAdminInstance = await harness.request('GET', '/metrics');

    expect(onReplica.status).toBe(200);
    expect(onReplica.text).toMatch(/^gateway_http_requests_total\{/m);
    expect(onReplica.text).not.toMatch(/^gateway_queue_jobs\{/m);
    expect(onAdminInstance.text).toMatch(
      /^gateway_queue_jobs\{queue="text-settlement",state="waiting"\} 0$/m,
    );
  });

  it('follows admin changes made on the other instance: a disabled key stops within seconds', async () => {
    const { key, id } = await harness.createKey(demo.accountId);
    expect((await onReplica(key)).status).toBe(200);

    await harness.adminOk('PATCH', `/admin/keys/${id}`, { status: 'disabled' });

    await waitFor(async () => (await onReplica(key)).status === 401, 3000);
  });
});
