import { seedDemoModels } from './demo-seeding';
import { GatewayHarness, type GatewayInstance, type HttpAnswer } from './gateway-harness';
import { imageHarnessEnv } from './image-demo';

type TaskRoute = 'videos' | 'create' | 'alpha' | 'gamma' | 'theta2' | 'music' | 'beta';

const THETA_2 = ['eta-theta-2-0-260128', 'eta-theta-2-0-fast-260128'];
const ALPHA = [
  'alphaq3-pro',
  'alphaq2-pro',
  'alphaq2-turbo',
  'alphaq2-pro-fast',
  'alphaq1',
  'alphaq1-classic',
  'alpha2.0',
];
const GAMMA = ['gamma-3.0-omni', 'gamma-2.6', 'gamma-2.5', 'gamma-avatar'];
const KAPPA_IMAGE = /^kappa-.*-image-preview$/;

/** The route each task route's refusal must name for `model`, by README's family table. */
function servingRoute(model: string, types: ReadonlySet<string>): RegExp {
  if (types.has('lambda')) return /POST \/lambda\/submit\/music/;
  if (THETA_2.includes(model)) return /POST \/v1\/video\/generations/;
  // The kappa image models are text and image models: either route is theirs.
  if (KAPPA_IMAGE.test(model)) return /POST \/v1\/(chat\/completions|images\/generations)/;
  if (model === 'chat-fast' || model === 'kappa-2.0-flash') return /POST \/v1\/chat\/completions/;
  if (types.has('kappa') || types.has('compat') || types.has('eta') || types.has('beta')) {
    // Image models of those types; their video models are served on the video routes.
    return /POST \/v1\/(images\/generations|videos\b)/;
  }
  return /POST \/v1\/videos\b/;
}

/**
 * Issue 31 on the task routes: every demo model on every task create route is served only where its
 * family and price say; elsewhere a 404 model_not_found in the route's envelope naming the route
 * that serves it, refused before any hold: no hold is left, no refusal is charged.
 */
describe('every demo model on every task create route', () => {
  let harness: GatewayHarness;
  let gateway: GatewayInstance;
  let key: string;
  let accountId: string;
  let typesOf: Map<string, Set<string>>;

  beforeAll(async () => {
    harness = await GatewayHarness.start(imageHarnessEnv());
    gateway = await harness.startSimulatorTrustingInstance();
    ({ key, accountId, typesOf } = await seedDemoModels(harness, gateway));
  }, 60_000);
  afterAll(() => harness.close());

  const videoModels = () =>
    [...typesOf.entries()]
      .filter(([model, types]) => !THETA_2.includes(model) && isVideoModel(model, types))
      .map(([model]) => model);
  const isVideoModel = (model: string, types: ReadonlySet<string>) =>
    ['alpha', 'gamma', 'mu', 'omega'].some((type) => types.has(type)) ||
    /^(delta|epsilon|zeta-video|nu|xi|eta-theta-1|beta-video)/.test(model);

  const served = (route: TaskRoute, model: string): boolean => {
    const types = typesOf.get(model) ?? new Set<string>();
    switch (route) {
      case 'videos':
      case 'create':
        return videoModels().includes(model);
      case 'alpha':
        return ALPHA.includes(model);
      case 'gamma':
        return GAMMA.includes(model);
      case 'theta2':
        return THETA_2.includes(model);
      case 'music':
        return types.has('lambda');
      case 'beta':
        // /bt selects its models by req_key (beta_t2i_v40 …), never by a model's name.
        return false;
    }
  };

  const call = (route: TaskRoute, model: string): Promise<HttpAnswer<unknown>> => {
    const prompt = 'Waves on a quiet beach';
    const paths: Record<TaskRoute, [string, object]> = {
      videos: ['/v1/videos', { model, prompt }],
      create: ['/v1/video/create', { model, prompt }],
      alpha: ['/alpha/ent/v2/text2video', { model, prompt }],
      gamma: ['/gamma/v1/videos/text2video', { model_name: model, prompt }],
      theta2: ['/v1/video/generations', { model, content: [{ type: 'text', text: prompt }] }],
      music: ['/lambda/submit/music', { mv: model, prompt }],
      beta: ['/bt?Action=CVSync2AsyncSubmitTask&Version=2022-08-31', { req_key: model, prompt }],
    };
    const [path, body] = paths[route];
    return harness.request('POST', path, {
      baseUrl: gateway.url,
      headers: { authorization: `Bearer ${key}` },
      body,
    });
  };

  /** The refusal in the route's envelope: OpenAI-style on /v1, the family's own elsewhere. */
  const refusalProblem = (
    route: TaskRoute,
    answer: HttpAnswer<unknown>,
    names: RegExp,
  ): string | undefined => {
    if (answer.status !== 404) return `status ${answer.status}`;
    const body = answer.body as Record<string, unknown>;
    const error = (body['error'] ?? {}) as Record<string, unknown>;
    const envelopes: Record<TaskRoute, () => boolean> = {
      videos: () => error['code'] === 'model_not_found' && error['type'] === 'invalid_request_error',
      create: () => error['code'] === 'model_not_found' && error['type'] === 'invalid_request_error',
      theta2: () => error['code'] === 'model_not_found' && error['type'] === 'invalid_request_error',
      alpha: () => answer.text.includes('ModelUnavailable'),
      gamma: () => body['code'] === 1201,
      music: () => body['code'] === 'model_not_found',
      // The beta business envelope: Invalid Param (§4.6).
      beta: () => body['code'] === 50205,
    };
    if (!envelopes[route]()) return 'not the route envelope';
    return names.test(answer.text) ? undefined : `does not name ${String(names)}`;
  };

  it('serves each model only where its family and price say, refuses it elsewhere naming its route', async () => {
    const models = [...typesOf.keys()];
    expect(models).toEqual(
      expect.arrayContaining(['chat-fast', 'img-1', 'delta-2', 'lambda-v5', ...THETA_2]),
    );
    const routes: TaskRoute[] = ['videos', 'create', 'alpha', 'gamma', 'theta2', 'music', 'beta'];
    const problems: string[] = [];
    let created = 0;
    for (const model of models) {
      for (const route of routes) {
        const answer = await call(route, model);
        if (served(route, model)) {
          // Served: created, or refused by the family's rules for this prompt-only body, never not found.
          if (answer.status === 200) created += 1;
          else if (answer.status === 404) problems.push(`${route} ${model}: ${answer.text.slice(0, 300)}`);
          continue;
        }
        const problem = refusalProblem(route, answer, servingRoute(model, typesOf.get(model) ?? new Set()));
        if (problem) problems.push(`${route} ${model}: ${problem}: ${answer.text.slice(0, 300)}`);
      }
    }
    expect(problems).toEqual([]);

    await harness.settled();
    const [counts] = await harness.query<{ tasks: number; holds: number }>(
      `select (select count(*)::int from tasks where account_id = $1) as tasks,
              (select count(*)::int from holds where account_id = $1 and status = 'open') as holds`,
      [accountId],
    );
    // Each created task holds its price; nothing else holds anything.
    expect(counts).toEqual({ tasks: created, holds: created });
    const charged = await harness.query<{ route: string; model: string }>(
      'select route, model from request_logs where account_id = $1 and http_status <> 200 and cost_micros <> 0',
      [accountId],
    );
    expect(charged).toEqual([]);
  }, 300_000);
});
