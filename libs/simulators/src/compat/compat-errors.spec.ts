import { RunningSimulator, startSimulator } from '../server';
import { parseJson, postJson } from '../testing/simulator-client.util';

const AUTH = { authorization: 'Bearer sim-compat-key' };
const REQUEST = { model: 'm', messages: [{ role: 'user', content: 'Hello' }] };

describe('compat scripted error classes', () => {
  let simulator: RunningSimulator;
  const chat = (directives: string): ReturnType<typeof postJson> =>
    postJson(`${simulator.url}/v1/chat/completions`, REQUEST, { ...AUTH, 'x-sim': directives });

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(() => simulator.close());

  it.each([
    ['error=rate_limit', 429, 'requests', 'rate_limit_exceeded'],
    ['error=insufficient_balance', 429, 'insufficient_quota', 'insufficient_quota'],
    ['error=overload', 503, 'server_error', 'server_is_overloaded'],
    ['error=overload;status=500', 500, 'server_error', 'server_error'],
    ['error=auth', 401, 'invalid_request_error', 'invalid_api_key'],
    ['error=auth;status=403', 403, 'request_forbidden', 'unsupported_country_region_territory'],
    ['error=bad_request', 400, 'invalid_request_error', 'invalid_value'],
    ['error=content_policy', 400, 'invalid_request_error', 'content_policy_violation'],
    ['block=prompt', 400, 'invalid_request_error', 'content_policy_violation'],
    ['status=503', 503, 'server_error', 'server_is_overloaded'],
  ])('%s → %i %s/%s in the OpenAI-style envelope', async (directives, status, type, code) => {
    const result = await chat(directives);
    expect(result.status).toBe(status);
    expect(parseJson(result.text)).toEqual({
      error: { message: expect.any(String), type, param: null, code },
    });
  });

  it('sends Retry-After when retry_after is scripted', async () => {
    const result = await chat('error=rate_limit;retry_after=12');
    expect(result.status).toBe(429);
    expect(result.headers.get('retry-after')).toBe('12');
    expect((await chat('error=rate_limit')).headers.get('retry-after')).toBeNull();
  });

  it('holds a timeout silent for the hang time, then answers 504', async () => {
    const startedAt = Date.now();
    const result = await chat('hang=250');
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(230);
    expect(result.status).toBe(504);
  });

  it('answers block=output with finish_reason content_filter and no content', async () => {
    const result = await chat('block=output');
    expect(result.status).toBe(200);
    expect(parseJson(result.text)).toMatchObject({
      choices: [{ message: { content: null }, finish_reason: 'content_filter' }],
    });
  });
});
