import { GatewayHarness, NATIVE_GENERATE_PATH, NATIVE_HELLO_BODY, type TextDemo } from './gateway-harness';
import { imageHarnessEnv, seedImageDemo, type ImageDemo } from './image-demo';

/**
 * What the generation pipeline puts on every answer, whatever the route: a synchronous answer says
 * what it cost (the amount its settlement captured), a stream cannot (its head leaves before its
 * usage is known) and leaves the cost to its log row, and an error costs nothing and says nothing.
 */
describe('the generation pipeline’s answers', () => {
  let harness: GatewayHarness;
  let text: TextDemo;
  let images: ImageDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start(imageHarnessEnv());
    text = await harness.seedTextDemo();
    images = await seedImageDemo(harness);
  });
  afterAll(() => harness.close());

  async function loggedCosts(keyId: string): Promise<string[]> {
    await harness.settled();
    return (await harness.requestLogsOf(keyId)).map((log) => log.cost_micros);
  }

  it('answers a whole text generation with the cost its log row captured', async () => {
    const answer = await harness.request('POST', NATIVE_GENERATE_PATH, {
      body: NATIVE_HELLO_BODY,
      headers: { authorization: `Bearer ${text.key}` },
    });
    expect(answer.status).toBe(200);
    const cost = answer.headers.get('x-gateway-cost-micros') ?? '';
    expect(cost).toMatch(/^[1-9][0-9]*$/);
    expect(await loggedCosts(text.keyId)).toContain(cost);
  });

  it('answers an image generation with its cost, the images it delivered', async () => {
    const answer = await harness.request<{ data: unknown[] }>('POST', '/v1/images/generations', {
      body: { model: 'img-1', prompt: 'A harbour', n: 1, response_format: 'b64_json' },
      headers: { authorization: `Bearer ${images.key}` },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toHaveLength(1);
    const cost = answer.headers.get('x-gateway-cost-micros');
    expect(cost).not.toBeNull();
    expect(BigInt(cost ?? '0')).toBeGreaterThan(0n);
    expect(await loggedCosts(images.keyId)).toContain(cost);
  });

  it('streams without a cost header; the stream’s cost is in its log row', async () => {
    const before = await loggedCosts(text.keyId);
    const answer = await harness.request(
      'POST',
      '/v1beta/models/kappa-2.0-flash:streamGenerateContent?alt=sse',
      { body: NATIVE_HELLO_BODY, headers: { authorization: `Bearer ${text.key}` } },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(answer.headers.get('x-gateway-cost-micros')).toBeNull();
    const after = await loggedCosts(text.keyId);
    expect(after).toHaveLength(before.length + 1);
    expect(BigInt(after.at(-1) ?? '0')).toBeGreaterThan(0n);
  });

  it('puts no cost on a refusal', async () => {
    const answer = await harness.request('POST', NATIVE_GENERATE_PATH, {
      body: { contents: [] },
      headers: { authorization: `Bearer ${text.key}` },
    });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('x-gateway-cost-micros')).toBeNull();
  });
});
