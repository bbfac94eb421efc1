import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JournalEntry } from '@gateway/simulators';
import { HOSTILE_URLS } from '@gateway/providers-core/testing';
import { GatewayHarness, type GatewayInstance, type HttpAnswer, type TextDemo } from './gateway-harness';

type Body = Record<string, unknown>;

/** A text route that hands a client's URL to its upstream: how to send one, and its dialect's 400. */
interface TextForwardingRoute {
  name: string;
  path: string;
  body(url: string): Body;
  refusedInDialect(answer: HttpAnswer<Body>): void;
}

const PNG_DATA_URL = 'data:image/png;base64,iVBORw0KGgo=';
const PUBLIC_URL = 'https://images.example/cat.png';

/** A chat whose image is the second part of the second message, behind a system prompt and a text part. */
const chatWithImage = (model: string, url: string, stream = false): Body => ({
  model,
  stream,
  messages: [
    { role: 'system', content: 'Be brief.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url } },
      ],
    },
  ],
});
const CHAT_IMAGE_FIELD = 'messages[1].content[1].image_url.url';

/** A native request whose file is the second part of its one content item. */
const nativeWithFile = (fileUri: string): Body => ({
  contents: [
    {
      role: 'user',
      parts: [{ text: 'What is this?' }, { fileData: { mimeType: 'image/png', fileUri } }],
    },
  ],
});
const NATIVE_FILE_FIELD = 'contents[0].parts[1].fileData.fileUri';

const openAiRefusal = (answer: HttpAnswer<Body>): void => {
  expect(answer.body.error).toMatchObject({ type: 'invalid_request_error', param: CHAT_IMAGE_FIELD });
};
const nativeRefusal = (answer: HttpAnswer<Body>): void => {
  expect(answer.body.error).toMatchObject({
    code: 400,
    status: 'INVALID_ARGUMENT',
    message: expect.stringContaining(NATIVE_FILE_FIELD),
  });
};

/**
 * The text routes under the one URL policy (docs/urls.md): an image part's URL of a chat and a native
 * part's fileUri are URLs the upstream fetches. The hostile list is refused on both routes, whole and
 * streamed, whichever dialect the channel speaks, as a 400 in the route's dialect naming the field,
 * before any hold (no lease is opened for the account) and without a call to the upstream. A data:
 * URL and a public URL are still served; SSRF_ALLOW_HOSTS lets the operator's own hosts through.
 */
describe('URLs handed to upstreams: the text routes', () => {
  let harness: GatewayHarness;
  let demo: TextDemo;
  /** An account that only ever sends refused requests. */
  let refused: { key: string; accountId: string };
  let creditEntries: number;

  const routes: TextForwardingRoute[] = [
    {
      name: '/v1/chat/completions to a channel of its own dialect',
      path: '/v1/chat/completions',
      body: (url) => chatWithImage('chat-fast', url),
      refusedInDialect: openAiRefusal,
    },
    {
      name: '/v1/chat/completions, streamed, to a native channel',
      path: '/v1/chat/completions',
      body: (url) => chatWithImage('kappa-2.0-flash', url, true),
      refusedInDialect: openAiRefusal,
    },
    {
      name: '/v1beta/models/{model}:generateContent',
      path: '/v1beta/models/kappa-2.0-flash:generateContent',
      body: nativeWithFile,
      refusedInDialect: nativeRefusal,
    },
    {
      name: '/v1beta/models/{model}:streamGenerateContent?alt=sse',
      path: '/v1beta/models/kappa-2.0-flash:streamGenerateContent?alt=sse',
      body: nativeWithFile,
      refusedInDialect: nativeRefusal,
    },
  ];

  const send = (path: string, body: Body, key: string, baseUrl?: string) =>
    harness.request<Body>('POST', path, { body, headers: { authorization: `Bearer ${key}` }, baseUrl });
  /** What the simulator received since its last reset, its own control routes aside. */
  const upstreamCalls = async (): Promise<JournalEntry[]> => {
    const response = await fetch(`${harness.simulatorUrl}/__sim/requests`);
    return ((await response.json()) as JournalEntry[]).filter((entry) => !entry.path.startsWith('/__sim'));
  };
  const resetSimulator = () => fetch(`${harness.simulatorUrl}/__sim/reset`, { method: 'POST' });
  /** A text hold is taken from a lease on the account: no lease, no hold row, no new ledger entry. */
  const moneyOf = async (accountId: string) => {
    const [money] = await harness.query<{ leases: number; holds: number; entries: number }>(
      `select (select count(*)::int from leases where account_id = $1) as leases,
              (select count(*)::int from holds where account_id = $1) as holds,
              (select count(*)::int from ledger_entries where account_id = $1) as entries`,
      [accountId],
    );
    return money;
  };

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await harness.seedTextDemo();
    const accountId = await harness.createAccount(1_000_000_000n);
    refused = { key: (await harness.createKey(accountId)).key, accountId };
    creditEntries = (await moneyOf(accountId)).entries;
  });
  afterAll(async () => {
    await harness.close();
  });

  describe.each(routes)('$name', (route) => {
    it('refuses every hostile URL with a 400 in its dialect, holding nothing and asking no upstream', async () => {
      await resetSimulator();
      for (const [name, url] of HOSTILE_URLS) {
        const answer = await send(route.path, route.body(url), refused.key);
        expect({ name, url, status: answer.status }).toEqual({ name, url, status: 400 });
        route.refusedInDialect(answer);
      }
      expect(await upstreamCalls()).toEqual([]);
      expect(await moneyOf(refused.accountId)).toEqual({ leases: 0, holds: 0, entries: creditEntries });
    });
  });

  it('refuses a native fileUri that is no http(s) URL: no other file reference is documented', async () => {
    await resetSimulator();
    for (const fileUri of ['files/abc123', 'gs://bucket/cat.png', PNG_DATA_URL]) {
      const answer = await send(
        '/v1beta/models/kappa-2.0-flash:generateContent',
        nativeWithFile(fileUri),
        refused.key,
      );
      expect({ fileUri, status: answer.status }).toEqual({ fileUri, status: 400 });
      nativeRefusal(answer);
    }
    expect(await upstreamCalls()).toEqual([]);
  });

  it.each([
    ['a data: URL', PNG_DATA_URL],
    ['a public https URL', PUBLIC_URL],
  ])('serves a chat image given as %s, passed on to the upstream', async (_case, url) => {
    await resetSimulator();
    const answer = await send('/v1/chat/completions', chatWithImage('chat-fast', url), demo.key);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: 'chat.completion' });
    const [call] = await upstreamCalls();
    expect(call.body).toContain(url);
  });

  it('serves a native file given by a public https URL, passed on to the upstream', async () => {
    await resetSimulator();
    const answer = await send(
      '/v1beta/models/kappa-2.0-flash:generateContent',
      nativeWithFile(PUBLIC_URL),
      demo.key,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ candidates: expect.any(Array) });
    const [call] = await upstreamCalls();
    expect(call.body).toContain(PUBLIC_URL);
  });

  describe('what the operator allows (SSRF_ALLOW_HOSTS)', () => {
    let imageHost: Server;
    let allowing: GatewayInstance;
    let privateUrl: string;

    beforeAll(async () => {
      // Only its address and port matter: the gateway never fetches a forwarded URL itself.
      imageHost = createServer((_request, response) => response.writeHead(404).end());
      await new Promise<void>((resolve) => imageHost.listen(0, '127.0.0.1', resolve));
      const { port } = imageHost.address() as AddressInfo;
      privateUrl = `http://127.0.0.1:${port}/frame.png`;
      allowing = await harness.startInstance({ ssrfAllowHosts: [`127.0.0.1:${port}`] });
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => imageHost.close(() => resolve()));
    });

    it('forwards a chat image on an allowed host and port, and refuses it where not allowed', async () => {
      const body = chatWithImage('chat-fast', privateUrl);
      const refusedAnswer = await send('/v1/chat/completions', body, demo.key);
      expect(refusedAnswer.status).toBe(400);
      openAiRefusal(refusedAnswer);
      const accepted = await send('/v1/chat/completions', body, demo.key, allowing.url);
      expect(accepted.status).toBe(200);
    });

    it('forwards a native fileUri on an allowed host and port, and refuses it where not allowed', async () => {
      const path = '/v1beta/models/kappa-2.0-flash:generateContent';
      const refusedAnswer = await send(path, nativeWithFile(privateUrl), demo.key);
      expect(refusedAnswer.status).toBe(400);
      nativeRefusal(refusedAnswer);
      const accepted = await send(path, nativeWithFile(privateUrl), demo.key, allowing.url);
      expect(accepted.status).toBe(200);
    });
  });
});
