import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { startSimulator, type RunningSimulator } from '@gateway/simulators';
import { createTestDatabase, waitFor, type TestDatabase } from '@gateway/testing';
import { seedTextOverAdminApi } from './admin-seed';
import { BuiltApps, freePort, untilListening, type AppProcess } from './app-processes';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Every stream would last 30 s (300 chunks, 100 ms apart): far longer than the grace period. */
const LONG_STREAM = 'Tell a long story [[sim chunks=300;interval=100]]';

interface OpenStream {
  requestId: string;
  /** Resolves with everything the client received, once the response ends. */
  body: Promise<string>;
}

/** Sends a streaming call and resolves once its first bytes are in: the stream is open. */
async function openStream(url: string, init: RequestInit): Promise<OpenStream> {
  const response = await fetch(url, init);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  let started: () => void = () => undefined;
  const firstBytes = new Promise<void>((resolve) => (started = resolve));
  const body = (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return text;
      text += decoder.decode(value, { stream: true });
      started();
    }
  })();
  await firstBytes;
  return { requestId: response.headers.get('x-request-id') ?? '', body };
}

/** The JSON of each `data:` event of an SSE body. */
function sseEvents(body: string): unknown[] {
  return body
    .split(/\r?\n\r?\n/)
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice('data: '.length))
    .map((data) => (data === '[DONE]' ? data : JSON.parse(data)));
}

const NATIVE_UNAVAILABLE = { error: { code: 503, message: expect.any(String), status: 'UNAVAILABLE' } };

/**
 * SIGTERM with streams that outlast SHUTDOWN_GRACE_MS: at the deadline every open stream ends with the
 * error event of its dialect, every request is settled once before the process exits, and it exits.
 */
describe('gateway shutdown deadline (gateway process)', () => {
  let database: TestDatabase;
  let simulator: RunningSimulator;
  let apps: BuiltApps;
  let gateway: AppProcess;
  let pool: Pool;

  beforeAll(async () => {
    [database, simulator] = await Promise.all([createTestDatabase(), startSimulator()]);
    pool = new Pool({ connectionString: database.url, max: 2 });
    apps = BuiltApps.build();
  }, 60_000);

  afterAll(async () => {
    await gateway?.kill();
    await pool?.end();
    await Promise.all([simulator?.close(), database?.drop()]);
    apps?.remove();
  });

  it('ends streams still open at the deadline with an error event in their dialect, settles each request once, and exits', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const adminToken = randomBytes(24).toString('hex');
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: `test-deadline-${randomBytes(4).toString('hex')}`,
      ADMIN_TOKEN: adminToken,
      MASTER_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'info',
      PORT: String(port),
      HOST: '127.0.0.1',
      SHUTDOWN_GRACE_MS: '1000',
    };
    gateway = apps.start('gateway', env);
    await untilListening(url, gateway);
    const { key, accountId } = await seedTextOverAdminApi(url, adminToken, simulator.url);

    const nativeInit = (text: string): RequestInit => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-vendor-api-key': key },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text }] }] }),
    });
    const nativeRoute = `${url}/v1beta/models/kappa-2.0-flash`;
    await fetch(`${simulator.url}/__sim/reset`, { method: 'POST' });
    // A whole answer whose upstream takes 30 s to reply.
    const whole = fetch(`${nativeRoute}:generateContent`, nativeInit('Think hard [[sim latency=30000]]'));
    const [nativeSse, nativeArray, openAiSse] = await Promise.all([
      openStream(`${nativeRoute}:streamGenerateContent?alt=sse`, nativeInit(LONG_STREAM)),
      openStream(`${nativeRoute}:streamGenerateContent`, nativeInit(LONG_STREAM)),
      openStream(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({
          model: 'chat-fast',
          stream: true,
          messages: [{ role: 'user', content: LONG_STREAM }],
        }),
      }),
    ]);
    await waitFor(async () => {
      const stats = (await (await fetch(`${simulator.url}/__sim/stats`)).json()) as { requests: number };
      return stats.requests === 4;
    });

    gateway.signal('SIGTERM');
    expect(await gateway.exited).toEqual({ code: 0, signal: null });

    const sseOfNative = sseEvents(await nativeSse.body);
    expect(sseOfNative.length).toBeGreaterThan(1);
    expect(sseOfNative.at(-1)).toEqual(NATIVE_UNAVAILABLE);
    const array = JSON.parse(await nativeArray.body) as unknown[];
    expect(array.length).toBeGreaterThan(1);
    expect(array.at(-1)).toEqual(NATIVE_UNAVAILABLE);
    const sseOfOpenAi = sseEvents(await openAiSse.body);
    expect(sseOfOpenAi.length).toBeGreaterThan(1);
    expect(sseOfOpenAi).not.toContain('[DONE]');
    expect(sseOfOpenAi.at(-1)).toMatchObject({
      error: { message: expect.any(String), type: 'server_error' },
    });
    const wholeAnswer = await whole;
    expect(wholeAnswer.status).toBe(503);
    expect(await wholeAnswer.json()).toEqual(NATIVE_UNAVAILABLE);
    const wholeId = wholeAnswer.headers.get('x-request-id') ?? '';

    const streamIds = [nativeSse, nativeArray, openAiSse].map((call) => call.requestId);
    const requestIds = [...streamIds, wholeId];
    // Read once the process is gone, with no worker-text running: the gateway wrote these before it exited.
    const { rows: logs } = await pool.query<{ request_id: string; http_status: number; end_reason: string }>(
      'select request_id, http_status, end_reason from request_logs where request_id = any($1)',
      [requestIds],
    );
    expect(logs.sort((a, b) => requestIds.indexOf(a.request_id) - requestIds.indexOf(b.request_id))).toEqual([
      ...streamIds.map((requestId) => ({ request_id: requestId, http_status: 200, end_reason: 'shutdown' })),
      { request_id: wholeId, http_status: 503, end_reason: 'shutdown' },
    ]);
    // Streams are billed for what they delivered (one capture each); the unanswered call for nothing.
    const { rows: captures } = await pool.query<{ request_id: string; captures: number }>(
      `select request_id, count(*)::int as captures from ledger_entries
        where kind = 'capture' and request_id = any($1) group by request_id`,
      [requestIds],
    );
    expect(captures.map((row) => [row.request_id, row.captures]).sort()).toEqual(
      streamIds.map((requestId) => [requestId, 1]).sort(),
    );
    // No hold or lease is left open, and the account's money adds up.
    const [account] = (
      await pool.query<{ held: string; balance: string; credited: string; captured: string }>(
        `select held::text, balance::text,
                (select coalesce(sum(amount), 0)::text from ledger_entries where account_id = $1 and kind = 'credit') as credited,
                (select coalesce(sum(amount), 0)::text from ledger_entries where account_id = $1 and kind = 'capture') as captured
           from accounts where id = $1`,
        [accountId],
      )
    ).rows;
    expect(account.held).toBe('0');
    expect(BigInt(account.balance)).toBe(BigInt(account.credited) - BigInt(account.captured));
    const { rows: open } = await pool.query(
      "select 1 from holds where status = 'open' union all select 1 from leases where status = 'open'",
    );
    expect(open).toEqual([]);
    expect(gateway.unstructuredLines()).toEqual([]);
  }, 90_000);
});
