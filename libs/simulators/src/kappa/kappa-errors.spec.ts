import { RunningSimulator, startSimulator } from '../server';
import { parseJson, postJson } from '../testing/simulator-client.util';

const KEY = { 'x-vendor-api-key': 'sim-kappa-key' };
const REQUEST = { contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] };

describe('kappa scripted error classes', () => {
  let simulator: RunningSimulator;
  const generate = (directives: string): ReturnType<typeof postJson> =>
    postJson(`${simulator.url}/v1beta/models/kappa-2.0-flash:generateContent`, REQUEST, {
      ...KEY,
      'x-sim': directives,
    });

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(() => simulator.close());

  it.each([
    ['error=rate_limit', 429, 'RESOURCE_EXHAUSTED'],
    ['error=overload', 503, 'UNAVAILABLE'],
    ['error=overload;status=500', 500, 'INTERNAL'],
    ['error=overload;status=504', 504, 'DEADLINE_EXCEEDED'],
    ['status=500', 500, 'INTERNAL'],
    ['error=auth', 400, 'INVALID_ARGUMENT'],
    ['error=auth;status=403', 403, 'PERMISSION_DENIED'],
    ['error=bad_request', 400, 'INVALID_ARGUMENT'],
    ['error=bad_request;status=404', 404, 'NOT_FOUND'],
    ['error=insufficient_balance', 400, 'FAILED_PRECONDITION'],
  ])('%s → %i %s in the kappa envelope', async (directives, status, statusText) => {
    const result = await generate(directives);
    expect(result.status).toBe(status);
    const body = parseJson(result.text) as { error: Record<string, unknown> };
    expect(body.error).toEqual(
      expect.objectContaining({ code: status, status: statusText, message: expect.any(String) }),
    );
  });

  it('marks a scripted auth failure with reason API_KEY_INVALID', async () => {
    const body = parseJson((await generate('error=auth')).text) as { error: { details: unknown[] } };
    expect(body.error.details).toEqual([
      { '@type': 'rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'kappa' },
    ]);
  });

  it('adds the retry delay to a rate limit when retry_after is scripted', async () => {
    const result = await generate('error=rate_limit;retry_after=7');
    expect(result.headers.get('retry-after')).toBe('7');
    expect(result.text).toContain('"retryDelay":"7s"');
  });

  it('answers content_policy with HTTP 200, promptFeedback.blockReason and no candidates', async () => {
    const result = await generate('error=content_policy');
    expect(result.status).toBe(200);
    const body = parseJson(result.text);
    expect(body['promptFeedback']).toMatchObject({ blockReason: 'SAFETY' });
    expect(body['candidates']).toBeUndefined();
    expect(body['usageMetadata']).toMatchObject({ promptTokenCount: 2, totalTokenCount: 2 });
  });

  it('answers block=output with a SAFETY candidate without content', async () => {
    const result = await generate('block=output');
    expect(result.status).toBe(200);
    const body = parseJson(result.text) as { candidates: Array<Record<string, unknown>> };
    expect(body.candidates).toHaveLength(1);
    expect(body.candidates[0]['finishReason']).toBe('SAFETY');
    expect(body.candidates[0]['content']).toBeUndefined();
  });

  it('holds a timeout silent for the hang time, then answers 504', async () => {
    const startedAt = Date.now();
    const result = await generate('error=timeout;hang=300');
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(280);
    expect(result.status).toBe(504);
    expect(parseJson(result.text)).toMatchObject({ error: { status: 'DEADLINE_EXCEEDED' } });
  });

  it('delays the headers by the scripted latency', async () => {
    const startedAt = Date.now();
    const result = await generate('latency=200');
    expect(result.status).toBe(200);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(180);
  });
});
