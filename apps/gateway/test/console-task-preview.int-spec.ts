import type { INestApplicationContext } from '@nestjs/common';
import { waitFor } from '@gateway/testing';
import { fromConsole, signIn } from './console-cookie.client';
import { GatewayHarness } from './gateway-harness';
import { seedVideoDemo, startVideoWorker, type VideoDemo } from './video-demo';

interface TaskDetail {
  id: string;
  status: string;
  contentUrl: string | null;
}

/** The Tasks page's preview: a produced video played through the gateway with the console's cookie. */
describe('GET /admin/tasks/{id}/content (the console’s preview)', () => {
  let harness: GatewayHarness;
  let worker: INestApplicationContext;
  let demo: VideoDemo;
  let cookie: string;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await seedVideoDemo(harness);
    worker = await startVideoWorker(harness);
    cookie = (await signIn(harness)).cookie;
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  async function createVideo(prompt: string): Promise<string> {
    const created = await harness.request<{ id: string }>('POST', '/v1/videos', {
      body: { model: 'delta-2', prompt },
      headers: { authorization: `Bearer ${demo.key}` },
    });
    expect(created.status).toBe(200);
    return created.body.id;
  }

  const detailOf = (id: string) => harness.adminOk<TaskDetail>('GET', `/admin/tasks/${id}`);

  it('gives a completed video a same-origin content URL that plays with the session cookie, ranges included', async () => {
    const id = await createVideo('a paper boat on a river');
    await waitFor(async () => (await detailOf(id)).status === 'completed', 30_000);
    const detail = await detailOf(id);
    expect(detail.contentUrl).toBe(`/admin/tasks/${id}/content`);

    // What a <video> element sends: a GET with the cookie (no Origin on a media GET).
    const whole = await fetch(`${harness.url}${detail.contentUrl}`, { headers: { cookie } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(10);

    const part = await fetch(`${harness.url}${detail.contentUrl}`, {
      headers: { cookie, range: 'bytes=0-9' },
    });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(0, 10));
  });

  it('refuses it without a session or to an inference key, and before the task has completed', async () => {
    const running = await createVideo('a slow sunrise [[sim task_ms=600000]]');
    expect((await detailOf(running)).contentUrl).toBeNull();
    const early = await harness.request('GET', `/admin/tasks/${running}/content`, { headers: { cookie } });
    expect(early.status).toBe(409);

    const refused: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${demo.key}` },
      { cookie: 'gw_console=' + 'x'.repeat(43) },
    ];
    for (const headers of refused) {
      const answer = await harness.request('GET', `/admin/tasks/${running}/content`, { headers });
      expect([401, 403]).toContain(answer.status);
    }
    const unknown = await harness.request('GET', '/admin/tasks/vid_unknown/content', { headers: { cookie } });
    expect(unknown.status).toBe(404);
    // The cookie may cancel it from the console's own page, whatever step its worker is at.
    const cancel = await harness.request('POST', `/admin/tasks/${running}/cancel`, {
      body: { reason: 'preview test' },
      headers: fromConsole(cookie, harness.url),
    });
    expect(cancel.status).toBe(200);
  });
});
