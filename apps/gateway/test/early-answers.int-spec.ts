import { once } from 'node:events';
import { connect, type Server, type Socket } from 'node:net';
import OpenAI, { APIError, AuthenticationError, toFile } from 'openai';
import { waitFor } from '@gateway/testing';
import { LINGERING_LIMITS } from '../src/platform/http/lingering-close';
import { GatewayHarness } from './gateway-harness';
import { TcpOutageProxy } from './tcp-outage.proxy';

const JSON_BODY_LIMIT = 1024 * 1024;
const CHAT_PATH = '/v1/chat/completions';
const UPLOAD_BYTES = 4 * 1024 * 1024;
const WRONG_KEY = 'gk_unknown0_notakeyatall';

/** An upload on a raw connection: what its client read, and when each side closed. */
interface RawUpload {
  socket: Socket;
  answer: () => string;
  /** When the gateway closed its side of the connection for good (its socket's close). */
  cutOff: Promise<number>;
  /** When the client's socket closed: only once a write met the closed connection. */
  clientClosed: Promise<number>;
}

/**
 * Opens a connection and sends the head of an upload of `contentLength` bytes under a wrong key. The
 * client keeps its side open when the gateway half-closes, as an uploading client does, so only the
 * gateway decides when the connection ends.
 */
async function startUpload(harness: GatewayHarness, contentLength: number): Promise<RawUpload> {
  const { hostname, port } = new URL(harness.url);
  const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
  const accepted = acceptedSocketOf(harness.app.fastify.server, socket);
  await once(socket, 'connect');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  // Writing into a connection the gateway cut fails: that is the expected end of these uploads.
  socket.on('error', () => undefined);
  const closedAt = (emitter: Socket) =>
    new Promise<number>((resolve) => emitter.once('close', () => resolve(Date.now())));
  const clientClosed = closedAt(socket);
  socket.write(
    `POST /v1/images/edits HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${WRONG_KEY}\r\n` +
      `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: ${contentLength}\r\n\r\n`,
  );
  return { socket, answer: () => answer, cutOff: accepted.then(closedAt), clientClosed };
}

/** The gateway's side of the client's connection. */
function acceptedSocketOf(server: Server, client: Socket): Promise<Socket> {
  return new Promise((resolve) => {
    const onConnection = (socket: Socket) => {
      if (socket.remotePort !== client.localPort) return;
      server.off('connection', onConnection);
      resolve(socket);
    };
    server.on('connection', onConnection);
  });
}

/** Unlike events.once, does not reject when the cut connection's writes fail. */
function drained(socket: Socket): Promise<void> {
  return new Promise((resolve) => socket.once('drain', resolve));
}

/** Waits for the whole 401 answer (its JSON body ends the bytes) and checks it. */
async function expectRefusal(upload: RawUpload): Promise<void> {
  await waitFor(async () => upload.answer().endsWith('}'), 5_000);
  expect(upload.answer()).toMatch(/^HTTP\/1\.1 401 /);
  expect(upload.answer().toLowerCase()).toContain('\r\nconnection: close\r\n');
}

/**
 * Issue 31, item 5: a request refused before its body is read (401 for a wrong key, 413 over the body
 * limit) is answered while the client is still sending. The gateway reads and drops the rest of the
 * body for a bounded time and size before closing, so that the client reads the refusal instead of a
 * reset connection, and a client that stalls or sends without end is still cut off.
 *
 * The SDK and fetch clients reach the gateway through a TCP relay, as behind a container's published
 * port or a layer-4 load balancer: a relay that meets the gateway's reset closes the client's side at
 * once, with upload bytes of its own unread, so the client gets a reset before it has read the answer
 * just relayed. That is where the refusals went missing; on a bare loopback the client usually wins
 * the race.
 */
describe('early answers on uploads', () => {
  let harness: GatewayHarness;
  let relay: TcpOutageProxy;
  /** The gateway through the relay. */
  let relayedUrl: string;
  let key: string;

  beforeAll(async () => {
    harness = await GatewayHarness.start({
      JSON_BODY_LIMIT_BYTES: String(JSON_BODY_LIMIT),
      // Every wrong key here must be answered 401, never 429 for an address that failed too often.
      AUTH_FAILURE_LIMIT: '0',
    });
    ({ key } = await harness.createKey(await harness.createAccount(0n)));
    relay = await TcpOutageProxy.start(harness.url);
    relayedUrl = relay.url(harness.url).replace(/\/$/, '');
  });
  afterAll(async () => {
    await relay?.close();
    await harness?.close();
  });

  const sdk = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${relayedUrl}/v1`, timeout: 20_000 });
  const fourMegabyteFile = () => toFile(Buffer.alloc(UPLOAD_BYTES, 0x89), 'frame.png', { type: 'image/png' });

  /** Requests that reached the gateway on `route` and were answered `status`, from its access log. */
  const arrivals = (route: string, status: number) =>
    harness.logs.filter((line) => {
      const entry = JSON.parse(line) as { msg?: string; route?: string; status?: number };
      return entry.msg === 'request' && entry.route === route && entry.status === status;
    }).length;

  /** How each of `count` calls ended: the error's class name, or 'resolved'. */
  async function outcomesOf(count: number, call: () => Promise<unknown>): Promise<string[]> {
    const outcomes: string[] = [];
    for (let index = 0; index < count; index += 1) {
      outcomes.push(
        await call().then(
          () => 'resolved',
          (error: unknown) => (error as Error).constructor.name,
        ),
      );
    }
    return outcomes;
  }

  it('the official client reads the 401 for a 4 MB images.edit with a wrong key, 20 times of 20', async () => {
    const client = sdk(WRONG_KEY);
    const outcomes = await outcomesOf(20, async () =>
      client.images.edit({ model: 'img-1', prompt: 'A red door', image: await fourMegabyteFile() }),
    );
    expect(outcomes).toEqual(Array<string>(20).fill(AuthenticationError.name));
  });

  it('the official client reads the 401 for a 4 MB videos.create input_reference with a wrong key, 20 times of 20', async () => {
    const client = sdk(WRONG_KEY);
    const outcomes = await outcomesOf(20, async () =>
      client.videos.create({
        model: 'delta-2',
        prompt: 'A kite over dunes',
        input_reference: await fourMegabyteFile(),
      }),
    );
    expect(outcomes).toEqual(Array<string>(20).fill(AuthenticationError.name));
  });

  it('the official client reads the 413 of an over-limit body, so each call reaches the gateway once', async () => {
    const client = sdk(key);
    const before = arrivals(CHAT_PATH, 413);
    const content = 'x'.repeat(2 * JSON_BODY_LIMIT);
    const statuses: unknown[] = [];
    for (let call = 0; call < 30; call += 1) {
      const error = await client.chat.completions
        .create({ model: 'chat-fast', messages: [{ role: 'user', content }] })
        .catch((refusal: unknown) => refusal);
      statuses.push(error instanceof APIError ? error.status : (error as Error).constructor.name);
    }
    expect(statuses).toEqual(Array<number>(30).fill(413));
    // The access log line is written once the answer has gone out, which may be after the client read it.
    await waitFor(async () => arrivals(CHAT_PATH, 413) - before >= 30, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(arrivals(CHAT_PATH, 413) - before).toBe(30);
  });

  /** 3 MiB of spaces in 64 KiB pieces, sent chunked: the gateway refuses it once it has read past its limit. */
  async function* chunkedBody(): AsyncGenerator<Buffer> {
    for (let piece = 0; piece < 48; piece += 1) yield Buffer.alloc(64 * 1024, 0x20);
  }

  it.each([
    ['announced by its Content-Length', () => ({ body: Buffer.alloc(3 * JSON_BODY_LIMIT, 0x20) })],
    ['sent chunked', () => ({ body: chunkedBody(), duplex: 'half' })],
  ])("Node's fetch reads the 413 of an over-limit body %s, 30 times of 30", async (_case, bodyOf) => {
    const answers: unknown[] = [];
    for (let call = 0; call < 30; call += 1) {
      answers.push(
        await fetch(`${relayedUrl}${CHAT_PATH}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          ...(bodyOf() as RequestInit),
        }).then(
          async (response) => [
            response.status,
            ((await response.json()) as { error: { type: string } }).error.type,
          ],
          (error: unknown) => String((error as Error & { cause?: unknown }).cause ?? error),
        ),
      );
    }
    expect(answers).toEqual(Array<unknown>(30).fill([413, 'invalid_request_error']));
  });

  it('a client that stalls mid-body after the 401 is cut off once it has sent nothing for the idle time', async () => {
    const upload = await startUpload(harness, 10 * UPLOAD_BYTES);
    upload.socket.write(Buffer.alloc(256 * 1024));
    const stalledAt = Date.now();
    await expectRefusal(upload);
    const cutAfterMs = (await upload.cutOff) - stalledAt;
    expect(cutAfterMs).toBeGreaterThanOrEqual(LINGERING_LIMITS.idleMs - 100);
    expect(cutAfterMs).toBeLessThan(LINGERING_LIMITS.idleMs + 1_500);
    upload.socket.destroy();
  });

  it('a client that keeps sending slowly after the 401 is cut off at the time bound', async () => {
    const upload = await startUpload(harness, 10 * UPLOAD_BYTES);
    const startedAt = Date.now();
    const trickle = setInterval(() => upload.socket.write(Buffer.alloc(1024)), 200);
    try {
      await expectRefusal(upload);
      const cutAfterMs = (await upload.cutOff) - startedAt;
      expect(cutAfterMs).toBeGreaterThanOrEqual(LINGERING_LIMITS.maxMs - 100);
      expect(cutAfterMs).toBeLessThan(LINGERING_LIMITS.maxMs + 1_500);
      // The next bytes meet the closed connection.
      await upload.clientClosed;
    } finally {
      clearInterval(trickle);
    }
  });

  it('a client that sends without end after the 401 is cut off past the byte bound', async () => {
    const upload = await startUpload(harness, 1024 * 1024 * 1024);
    const startedAt = Date.now();
    let open = true;
    void upload.clientClosed.then(() => (open = false));
    const chunk = Buffer.alloc(256 * 1024);
    let sent = 0;
    while (open) {
      sent += chunk.length;
      if (!upload.socket.write(chunk)) await Promise.race([drained(upload.socket), upload.clientClosed]);
    }
    await expectRefusal(upload);
    expect((await upload.cutOff) - startedAt).toBeLessThan(LINGERING_LIMITS.maxMs);
    expect(sent).toBeGreaterThan(LINGERING_LIMITS.maxBytes);
    // What the connection's buffers held on both sides when it was cut, and no more.
    expect(sent).toBeLessThan(LINGERING_LIMITS.maxBytes + 32 * 1024 * 1024);
  });
});
