import { GatewayHarness, type TextDemo } from '../gateway-harness';
import { imageHarnessEnv, seedImageDemo } from '../image-demo';
import { type HostileBody, loadHostileBodies } from './hostile-bodies.corpus';

/** A route that takes a JSON body, and the credential it is called with. */
interface FuzzRoute {
  name: string;
  method: 'POST' | 'PATCH' | 'PUT';
  path: string;
  headers: Record<string, string>;
}

/** How many requests are in flight at once: enough to overlap them, few enough for a shared machine. */
const CONCURRENCY = 6;
/**
 * The largest answer header a client can count on reading: many proxies and clients stop at 8 KB
 * (Node's own limit is 16 KB, past which fetch fails). A header echoing a client's field name must
 * stay under it.
 */
const MAX_HEADER_BYTES = 8 * 1024;

/**
 * The theta asset actions that take a required field (the listings take none: every object is a
 * valid listing); without an asset channel or an asset, none may succeed.
 */
const THETA_ASSET_ACTIONS = [
  'CreateAssetGroup',
  'CreateAsset',
  'GetAsset',
  'UpdateAsset',
  'DeleteAssetGroup',
];

describe('hostile bodies (fuzz corpus) against the text, image, /bt, video and gamma routes and the admin API', () => {
  let harness: GatewayHarness;
  let demo: TextDemo;
  let routes: FuzzRoute[];
  let bodies: HostileBody[];
  /** The key of the account bodies that `spend` are charged to, never the demo's. */
  let spenderKey: string;

  beforeAll(async () => {
    harness = await GatewayHarness.start(imageHarnessEnv());
    demo = await harness.seedTextDemo();
    // Image prices and channels as the image and /bt specs seed them; every call uses the text demo's
    // key, so the one account whose balance is checked below is the one every route would charge.
    await seedImageDemo(harness);
    await harness.seedBetaChannel();
    // The admin routes that take an id change objects of their own, never the demo's account.
    const accountId = await harness.createAccount(0n);
    const { id: keyId } = await harness.createKey(accountId);
    const channelId = await harness.createChannel({
      type: 'compat',
      name: 'fuzz-target',
      secret: 'sim-compat-key',
      models: [{ model: 'fuzz-only' }],
    });
    spenderKey = (await harness.createKey(await harness.createAccount(1_000_000_000n))).key;
    const vendorKey = { 'x-vendor-api-key': demo.key };
    const admin = { authorization: `Bearer ${harness.adminToken}` };
    routes = [
      {
        name: 'chat',
        method: 'POST',
        path: '/v1/chat/completions',
        headers: { authorization: `Bearer ${demo.key}` },
      },
      {
        name: 'native generate',
        method: 'POST',
        path: '/v1beta/models/kappa-2.0-flash:generateContent',
        headers: vendorKey,
      },
      {
        name: 'native stream',
        method: 'POST',
        path: '/v1beta/models/kappa-2.0-flash:streamGenerateContent?alt=sse',
        headers: vendorKey,
      },
      {
        name: 'image generations',
        method: 'POST',
        path: '/v1/images/generations',
        headers: { authorization: `Bearer ${demo.key}` },
      },
      {
        name: 'bt submit',
        method: 'POST',
        path: '/bt?Action=CVSync2AsyncSubmitTask&Version=2022-08-31',
        headers: { authorization: `Bearer ${demo.key}` },
      },
      {
        name: 'bt get result',
        method: 'POST',
        path: '/bt?Action=CVSync2AsyncGetResult&Version=2022-08-31',
        headers: { authorization: `Bearer ${demo.key}` },
      },
      {
        name: 'videos create',
        method: 'POST',
        path: '/v1/videos',
        headers: { authorization: `Bearer ${demo.key}` },
      },
      {
        name: 'unified video create',
        method: 'POST',
        path: '/v1/video/create',
        headers: { authorization: `Bearer ${demo.key}` },
      },
      {
        name: 'delta characters',
        method: 'POST',
        path: '/delta/v1/characters',
        headers: { authorization: `Bearer ${demo.key}` },
      },
      ...['/v1/video/generations', ...THETA_ASSET_ACTIONS.map((action) => `/v1/theta/asset/${action}`)].map(
        (path): FuzzRoute => ({
          name: path,
          method: 'POST',
          path,
          headers: { authorization: `Bearer ${demo.key}` },
        }),
      ),
      ...['text2video', 'img2video', 'start-end2video', 'reference2video'].map((endpoint): FuzzRoute => ({
        name: `alpha ${endpoint}`,
        method: 'POST',
        path: `/alpha/ent/v2/${endpoint}`,
        headers: { authorization: `Bearer ${demo.key}` },
      })),
      // No gamma channel: a body the gamma routes accept ends in model_not_found, holding nothing.
      ...['text2video', 'image2video', 'omni-video'].map((endpoint): FuzzRoute => ({
        name: `gamma ${endpoint}`,
        method: 'POST',
        path: `/gamma/v1/videos/${endpoint}`,
        headers: { authorization: `Bearer ${demo.key}` },
      })),
      // No lambda channel: a body the submit routes accept ends in model_not_found, holding nothing.
      ...['music', 'LYRICS'].map((action): FuzzRoute => ({
        name: `lambda submit ${action}`,
        method: 'POST',
        path: `/lambda/submit/${action}`,
        headers: { authorization: `Bearer ${demo.key}` },
      })),
      {
        name: 'lambda fetch',
        method: 'POST',
        path: '/lambda/fetch',
        headers: { authorization: `Bearer ${demo.key}` },
      },
      // Multipart only: a JSON body is refused; a form whose text parts are not UTF-8 too.
      {
        name: 'image edits',
        method: 'POST',
        path: '/v1/images/edits',
        headers: { authorization: `Bearer ${demo.key}` },
      },
      { name: 'admin create channel', method: 'POST', path: '/admin/channels', headers: admin },
      { name: 'admin PATCH channel', method: 'PATCH', path: `/admin/channels/${channelId}`, headers: admin },
      { name: 'admin create key', method: 'POST', path: '/admin/keys', headers: admin },
      { name: 'admin PATCH key', method: 'PATCH', path: `/admin/keys/${keyId}`, headers: admin },
      { name: 'admin create account', method: 'POST', path: '/admin/accounts', headers: admin },
      { name: 'admin PATCH account', method: 'PATCH', path: `/admin/accounts/${accountId}`, headers: admin },
      { name: 'admin credit', method: 'POST', path: `/admin/accounts/${accountId}/credits`, headers: admin },
      { name: 'admin prices', method: 'PUT', path: '/admin/prices', headers: admin },
    ];
    bodies = loadHostileBodies(harness.config.jsonBodyLimitBytes);
  });
  afterAll(() => harness.close());

  /** What is wrong with the answer to `body` on `route`, or undefined when it is right. */
  async function faultOf(route: FuzzRoute, body: HostileBody): Promise<string | undefined> {
    const credentials = body.spends
      ? Object.fromEntries(
          Object.entries(route.headers).map(([name, value]) => [name, value.replace(demo.key, spenderKey)]),
        )
      : route.headers;
    const headers = {
      ...credentials,
      ...(body.contentType === null ? {} : { 'content-type': body.contentType }),
    };
    let answer;
    try {
      answer = await harness.request(route.method, route.path, { rawBody: body.bytes, headers });
    } catch (error) {
      return `no answer (${String((error as Error).cause ?? error)})`;
    }
    const { status } = answer;
    const expected = body.validFor.includes(route.name) ? status < 300 : status >= 400 && status < 500;
    if (!expected) return String(status);
    const long = [...answer.headers].find(([name, value]) => name.length + value.length > MAX_HEADER_BYTES);
    return long && `${status} with a header ${long[0]} of ${long[1].length} bytes`;
  }

  it('keeps at least 150 hostile bodies of every kind the issue names', () => {
    expect(bodies.length).toBeGreaterThanOrEqual(150);
    expect(new Set(bodies.map((body) => body.category))).toEqual(
      new Set([
        'truncated',
        'malformed',
        'top-level',
        'deep',
        'numbers',
        'wrong-type',
        'prototype-key',
        'invalid-utf8',
        'invalid-base64',
        'null-bytes',
        'content-type',
        'strings',
        'generated',
      ]),
    );
  });

  it('answers every body on every route with a 4xx (a 2xx only where the body is valid), never a 5xx nor a header over 8 KB', async () => {
    const cases = bodies.flatMap((body) => routes.map((route) => ({ body, route })));
    const wrong: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const { body, route } = cases[next++];
        const fault = await faultOf(route, body);
        if (fault !== undefined) wrong.push(`${route.name} ← ${body.category}: ${body.name} → ${fault}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(wrong).toEqual([]);
    // Every body on every route, some of them megabytes: 27-30 s alone, over a minute in the full
    // parallel suite on a 2-core machine. Bounded work, so a longer limit than the suite's default.
  }, 180_000);

  it('charged nothing: the balance is untouched, nothing is held, the ledger has no capture', async () => {
    await harness.settled();
    const account = await harness.adminOk<{ balanceMicros: string; heldMicros: string }>(
      'GET',
      `/admin/accounts/${demo.accountId}`,
    );
    expect(account).toMatchObject({ balanceMicros: '1000000000', heldMicros: '0' });
    const captures = await harness.query<{ n: number }>(
      "select count(*)::int as n from ledger_entries where kind = 'capture' and account_id = $1",
      [demo.accountId],
    );
    expect(captures[0].n).toBe(0);
  });

  it('still serves an ordinary request afterwards', async () => {
    const answer = await harness.request<{ choices: unknown[] }>('POST', '/v1/chat/completions', {
      body: { model: 'chat-fast', messages: [{ role: 'user', content: 'Hello' }] },
      headers: { authorization: `Bearer ${demo.key}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.choices).toHaveLength(1);
  });
});
