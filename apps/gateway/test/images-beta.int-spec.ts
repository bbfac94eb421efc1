import { randomBytes } from 'node:crypto';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';
import { base64ImageSize, downloadedImage, imageHarnessEnv, openAiClient } from './image-demo';

type Size = NonNullable<Parameters<ReturnType<typeof openAiClient>['images']['generate']>[0]['size']>;

/** BETA_TEST_PRICES: one 1k image (a 1024x1024 output). */
const ONE_1K_IMAGE = 20_000n;
const CREDIT = 1_000_000n;
/** Small enough that a task scripted to take longer answers 504 quickly. */
const SHORT_TASK_TIMEOUT_MS = 1_000;

interface SimulatedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  authenticated: boolean;
  body: string;
}

interface ImageAnswer {
  data?: Array<{ url?: string; b64_json?: string }>;
  error?: { message: string; type: string; code: string };
}

/**
 * The beta image families on /v1/images/generations: an asynchronous wire whose task the gateway
 * submits and polls within the client's request, through a signed channel (beta-4.0) and a relay
 * channel (beta-4.5), against the beta simulator.
 */
describe('images on the beta task wire', () => {
  let harness: GatewayHarness;
  let shortWait: GatewayInstance;

  beforeAll(async () => {
    harness = await GatewayHarness.start({ ...imageHarnessEnv(), IMAGE_TASK_POLL_INTERVAL_MS: '50' });
    shortWait = await harness.startInstance({ imageTaskTimeoutMs: SHORT_TASK_TIMEOUT_MS });
    await harness.seedBetaChannel({ models: ['beta-4.0'] });
    await harness.seedBetaChannel({ secret: 'sk-sim-beta-relay', models: ['beta-4.5'] });
  });
  afterAll(() => harness.close());

  async function newAccount(): Promise<{ key: string; keyId: string; accountId: string }> {
    const accountId = await harness.createAccount(CREDIT);
    const { key, id } = await harness.createKey(accountId);
    return { key, keyId: id, accountId };
  }

  /** A marker that finds this test's upstream calls in the simulator's journal. */
  const marker = () => `kite-${randomBytes(4).toString('hex')}`;

  async function upstreamCallsWith(text: string): Promise<SimulatedRequest[]> {
    const response = await fetch(`${harness.simulatorUrl}/__sim/requests?limit=200`);
    return ((await response.json()) as SimulatedRequest[]).filter((call) => call.body.includes(text));
  }

  /** Result queries the simulator has answered so far (tests of this file run one at a time). */
  async function resultQueries(): Promise<number> {
    const response = await fetch(`${harness.simulatorUrl}/__sim/stats`);
    return ((await response.json()) as { byRoute: Record<string, number> }).byRoute['beta:getResult'] ?? 0;
  }

  function generate(url: string, key: string, body: Record<string, unknown>) {
    return harness.request<ImageAnswer>('POST', '/v1/images/generations', {
      baseUrl: url,
      body: { response_format: 'b64_json', size: '1024x1024', ...body },
      headers: { authorization: `Bearer ${key}` },
    });
  }

  it.each([
    ['beta-4.0', 'signed', '/'],
    ['beta-4.5', 'relay', '/bt'],
  ])('%s (%s channel) answers url and b64_json through the official client', async (model, _, path) => {
    const account = await newAccount();
    const client = openAiClient(harness.url, account.key);
    const text = marker();
    const queriesBefore = await resultQueries();

    const asUrl = await client.images.generate({
      model,
      prompt: `A ${text} over the sea [[sim polls=2]]`,
      size: '1024x1024' as Size,
      response_format: 'url',
    });
    expect(asUrl.data).toHaveLength(1);
    const url = asUrl.data?.[0].url ?? '';
    expect(url.startsWith(`${harness.url}/files/`)).toBe(true);
    expect(await downloadedImage(url)).toMatchObject({ width: 1024, height: 1024, contentType: 'image/png' });

    const asBase64 = await client.images.generate({
      model,
      prompt: `A ${text} at dusk [[sim polls=1]]`,
      size: '1024x1024' as Size,
      response_format: 'b64_json',
    });
    expect(base64ImageSize(asBase64.data?.[0].b64_json ?? '')).toEqual({ width: 1024, height: 1024 });

    // One submission per request on the channel's path, then queries until done: pending ones included.
    const calls = await upstreamCallsWith(text);
    const submits = calls.filter((call) => call.query.Action === 'CVSync2AsyncSubmitTask');
    expect(submits).toHaveLength(2);
    expect(submits.every((call) => call.path === path && call.authenticated)).toBe(true);
    // polls=2 then polls=1: three pending answers and two done ones at least.
    expect((await resultQueries()) - queriesBefore).toBeGreaterThanOrEqual(5);

    const books = await harness.settledBooks(account.accountId);
    expect(books.captures).toBe(2n * ONE_1K_IMAGE);
    expect(await harness.requestLogsOf(account.keyId)).toEqual([
      { http_status: 200, end_reason: 'completed', image_count: 1, cost_micros: ONE_1K_IMAGE.toString() },
      { http_status: 200, end_reason: 'completed', image_count: 1, cost_micros: ONE_1K_IMAGE.toString() },
    ]);
  });

  it('signs the submission with the channel key pair', async () => {
    const account = await newAccount();
    const text = marker();
    const answer = await generate(harness.url, account.key, { model: 'beta-4.0', prompt: `A ${text}` });
    expect(answer.status).toBe(200);
    const [submit] = (await upstreamCallsWith(text)).filter(
      (call) => call.query.Action === 'CVSync2AsyncSubmitTask',
    );
    expect(submit).toMatchObject({ path: '/', authenticated: true, query: { Version: '2022-08-31' } });
    expect(JSON.parse(submit.body)).toMatchObject({ req_key: 'beta_t2i_v40', width: 1024, height: 1024 });
  });

  it.each([
    ['beta-4.0', 'prompt'],
    ['beta-4.0', 'output'],
    ['beta-4.5', 'prompt'],
    ['beta-4.5', 'output'],
  ])('%s: a block of the %s is a 400 content_policy_violation, charged nothing', async (model, block) => {
    const account = await newAccount();
    const answer = await generate(harness.url, account.key, {
      model,
      prompt: `A kite [[sim block=${block}]]`,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'content_policy_violation' });
    const books = await harness.settledBooks(account.accountId);
    expect(books.captures).toBe(0n);
    expect(books.balance).toBe(CREDIT);
    expect(await harness.requestLogsOf(account.keyId)).toEqual([
      { http_status: 400, end_reason: 'upstream_error', image_count: 0, cost_micros: '0' },
    ]);
  });

  it.each([
    ['overload', 503],
    ['bad_request', 400],
  ])('a task that fails upstream (%s) releases the hold', async (errorClass, status) => {
    const account = await newAccount();
    const answer = await generate(harness.url, account.key, {
      model: 'beta-4.0',
      prompt: `A kite [[sim error=${errorClass};error_after=1]]`,
    });
    expect(answer.status).toBe(status);
    const books = await harness.settledBooks(account.accountId);
    expect(books.captures).toBe(0n);
    expect(books.balance).toBe(CREDIT);
    const holds = await harness.query<{ status: string; amount: string }>(
      'select status, amount::text from holds where request_id = $1',
      [answer.headers.get('x-request-id')],
    );
    expect(holds).toEqual([{ status: 'settled', amount: ONE_1K_IMAGE.toString() }]);
    expect(await harness.requestLogsOf(account.keyId)).toEqual([
      { http_status: status, end_reason: 'upstream_error', image_count: 0, cost_micros: '0' },
    ]);
  });

  it('a task slower than IMAGE_TASK_TIMEOUT_MS answers 504 and releases the hold', async () => {
    const account = await newAccount();
    const answer = await generate(shortWait.url, account.key, {
      model: 'beta-4.5',
      prompt: `A slow kite [[sim task_ms=${SHORT_TASK_TIMEOUT_MS * 5}]]`,
    });
    expect(answer.status).toBe(504);
    const books = await harness.settledBooks(account.accountId);
    expect(books.captures).toBe(0n);
    expect(books.balance).toBe(CREDIT);
    const [log] = await harness.requestLogsOf(account.keyId);
    expect(log).toMatchObject({ http_status: 504, image_count: 0, cost_micros: '0' });
  });
});
