import { seedDemoModels } from './demo-seeding';
import { GatewayHarness, type GatewayInstance, type HttpAnswer } from './gateway-harness';
import { imageHarnessEnv, pngOf } from './image-demo';

const KAPPA_IMAGE_MODELS = [
  'kappa-3-pro-image-preview',
  'kappa-2.5-flash-image-preview',
  'kappa-3.1-flash-image-preview',
];

/** Where each model is served, by README's family table. */
const SERVED: Record<RouteName, readonly string[]> = {
  chat: ['kappa-2.0-flash', 'chat-fast', ...KAPPA_IMAGE_MODELS],
  generate: ['kappa-2.0-flash', 'chat-fast', ...KAPPA_IMAGE_MODELS],
  stream: ['kappa-2.0-flash', 'chat-fast', ...KAPPA_IMAGE_MODELS],
  generations: [
    ...KAPPA_IMAGE_MODELS,
    'img-1',
    'img-2',
    'img-2-pro',
    'draw-2',
    'draw-3',
    'zeta-4-2-image',
    'eta-iota-4-0-250828',
    'eta-iota-4-5-251128',
    'eta-iota-5-0-260128',
    'beta-4.0',
    'beta-4.5',
  ],
  edits: ['img-1', 'img-2', 'img-2-pro', 'draw-2'],
};

type RouteName = 'chat' | 'generate' | 'stream' | 'generations' | 'edits';

/** The error body of every dialect the synchronous routes speak. */
interface ErrorBody {
  error?: { code?: string | number; message?: string; status?: string; type?: string; param?: string };
}

/** The route a refusal of `model` must send the client to. */
function servingRoute(model: string, types: ReadonlySet<string>): RegExp {
  if (SERVED.generations.includes(model)) return /POST \/v1\/images\/generations/;
  if (SERVED.chat.includes(model)) return /POST \/v1\/chat\/completions/;
  if (types.has('lambda')) return /POST \/lambda\/submit\/music/;
  if (model.startsWith('eta-theta-2-0')) return /POST \/v1\/video\/generations/;
  return /POST \/v1\/videos\b/;
}

/**
 * A model is served on a route only where its family and its price say so; everywhere else it is a
 * 404 model_not_found in the route's dialect that names the route serving it, taken before any hold:
 * nothing that produced output is logged at cost 0, and no money stays held.
 */
describe('every demo model on every synchronous inference route', () => {
  let harness: GatewayHarness;
  let gateway: GatewayInstance;
  let key: string;
  let accountId: string;
  let typesOf: Map<string, Set<string>>;

  beforeAll(async () => {
    harness = await GatewayHarness.start({ ...imageHarnessEnv(), IMAGE_TASK_POLL_INTERVAL_MS: '50' });
    gateway = await harness.startSimulatorTrustingInstance();
    ({ key, accountId, typesOf } = await seedDemoModels(harness, gateway));
  }, 60_000);
  afterAll(() => harness.close());

  const call = (route: RouteName, model: string): Promise<HttpAnswer<ErrorBody>> => {
    const bearer = { authorization: `Bearer ${key}` };
    const native = `/v1beta/models/${encodeURIComponent(model)}`;
    const contents = { contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }] };
    const prompt = 'A lighthouse at dawn';
    switch (route) {
      case 'chat':
        return harness.request('POST', '/v1/chat/completions', {
          baseUrl: gateway.url,
          headers: bearer,
          body: { model, messages: [{ role: 'user', content: 'Say hello' }] },
        });
      case 'generate':
      case 'stream':
        return harness.request(
          'POST',
          route === 'generate' ? `${native}:generateContent` : `${native}:streamGenerateContent?alt=sse`,
          { baseUrl: gateway.url, headers: { 'x-vendor-api-key': key }, body: contents },
        );
      case 'generations':
        return harness.request('POST', '/v1/images/generations', {
          baseUrl: gateway.url,
          headers: bearer,
          body: { model, prompt, response_format: 'b64_json' },
        });
      case 'edits':
        return editImage(model, prompt);
    }
  };

  const editImage = async (model: string, prompt: string): Promise<HttpAnswer<ErrorBody>> => {
    const form = new FormData();
    form.set('model', model);
    form.set('prompt', prompt);
    form.set('response_format', 'b64_json');
    form.set('image', new Blob([new Uint8Array(pngOf(256, 256))], { type: 'image/png' }), 'input.png');
    const response = await fetch(`${gateway.url}/v1/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: JSON.parse(text) as ErrorBody, text };
  };

  /** The refusal in the route's dialect: OpenAI-style under /v1, native under /v1beta. */
  const expectRefusal = (route: RouteName, answer: HttpAnswer<ErrorBody>, names: RegExp) => {
    expect(answer.status).toBe(404);
    if (route === 'generate' || route === 'stream') {
      expect(answer.body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    } else {
      expect(answer.body.error).toMatchObject({
        code: 'model_not_found',
        type: 'invalid_request_error',
        param: 'model',
      });
    }
    expect(answer.body.error?.message).toMatch(names);
  };

  it('serves each model only where its family and price say, refuses it elsewhere naming its route', async () => {
    const models = [...typesOf.keys()];
    // Every family of the demo is in the matrix: text, image, video, music.
    expect(models).toEqual(expect.arrayContaining(['chat-fast', 'img-1', 'delta-2', 'lambda-v5']));
    const outcomes: string[] = [];
    let served = 0;
    for (const model of models) {
      for (const route of Object.keys(SERVED) as RouteName[]) {
        const answer = await call(route, model);
        if (SERVED[route].includes(model)) {
          served += 1;
          if (answer.status !== 200) outcomes.push(`${route} ${model}: ${answer.status} ${answer.text}`);
        } else {
          // Collected, not thrown one by one: a failure lists every pair that went wrong.
          try {
            expectRefusal(route, answer, servingRoute(model, typesOf.get(model) ?? new Set()));
          } catch {
            outcomes.push(`${route} ${model}: ${answer.status} ${answer.text.slice(0, 300)}`);
          }
        }
      }
    }
    expect(outcomes).toEqual([]);

    const books = await harness.settledBooks(accountId);
    expect(books.openHolds).toBe(0n);
    const logs = await harness.query<{
      model: string;
      route: string;
      http_status: number;
      cost_micros: string;
    }>('select model, route, http_status, cost_micros::text from request_logs where account_id = $1', [
      accountId,
    ]);
    expect(logs).toHaveLength(models.length * Object.keys(SERVED).length);
    expect(logs.filter((log) => log.http_status === 200)).toHaveLength(served);
    // What produced output was charged; what was refused was charged nothing.
    expect(logs.filter((log) => log.http_status === 200 && BigInt(log.cost_micros) === 0n)).toEqual([]);
    expect(logs.filter((log) => log.http_status !== 200 && BigInt(log.cost_micros) !== 0n)).toEqual([]);
  }, 240_000);
});
