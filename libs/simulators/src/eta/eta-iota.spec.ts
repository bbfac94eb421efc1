import { imageSize } from 'image-size';
import { solidImage } from '../image-bytes.util';
import { JournalEntry } from '../request-journal';
import { RunningSimulator, startSimulator } from '../server';
import { getBytes, getUrl, parseJson, postJson } from '../testing/simulator-client.util';

const AUTH = { authorization: 'Bearer sim-eta-key' };
const MODEL = 'eta-iota-4-0-250828';

interface IotaAnswer {
  model: string;
  created: number;
  data: Array<{ url?: string; b64_json?: string; size?: string; error?: { code: string; message: string } }>;
  usage: { generated_images: number; output_tokens: number; total_tokens: number };
}

describe('eta iota images', () => {
  let simulator: RunningSimulator;
  const generate = (body: unknown, headers: Record<string, string> = AUTH): ReturnType<typeof postJson> =>
    postJson(`${simulator.url}/api/v3/images/generations`, body, headers);
  const answerOf = async (
    body: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<IotaAnswer> => {
    const result = await generate({ model: MODEL, prompt: 'a city', ...body }, headers);
    expect(result.status).toBe(200);
    return JSON.parse(result.text) as IotaAnswer;
  };

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(() => simulator.close());

  it('answers one JPEG by URL with its size, usage and a request id header', async () => {
    const result = await generate({ model: MODEL, prompt: 'a city', size: '2560x1440', watermark: false });
    expect(result.status).toBe(200);
    expect(result.headers.get('x-request-id')).toMatch(/^02\d{31}$/);
    const answer = JSON.parse(result.text) as IotaAnswer;
    expect(answer).toEqual({
      model: MODEL,
      created: expect.any(Number),
      data: [{ url: expect.stringMatching(/\/files\/img_\w+\.jpeg$/), size: '2560x1440' }],
      usage: { generated_images: 1, output_tokens: 14_400, total_tokens: 14_400 },
    });
    const download = await getBytes(answer.data[0].url ?? '');
    expect(download.contentType).toBe('image/jpeg');
    expect(imageSize(download.bytes)).toMatchObject({ type: 'jpg', width: 2560, height: 1440 });
  });

  it('answers Base64 when response_format is b64_json, at the default 2048x2048', async () => {
    const answer = await answerOf({ response_format: 'b64_json' });
    expect(answer.data[0].size).toBe('2048x2048');
    expect(imageSize(Buffer.from(answer.data[0].b64_json ?? '', 'base64'))).toMatchObject({
      width: 2048,
      height: 2048,
    });
  });

  it('gives URLs 24 hours', async () => {
    const answer = await answerOf({ size: '1K' });
    const head = await fetch(answer.data[0].url ?? '', { method: 'HEAD' });
    expect(Date.parse(head.headers.get('expires') ?? '') - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
  });

  describe('group mode', () => {
    it('returns max_images images, or as many as images= scripts', async () => {
      const group = {
        sequential_image_generation: 'auto',
        sequential_image_generation_options: { max_images: 3 },
      };
      expect((await answerOf(group)).data).toHaveLength(3);
      expect((await answerOf(group, { ...AUTH, 'x-sim': 'images=2' })).data).toHaveLength(2);
      expect(
        (await answerOf({ sequential_image_generation: 'disabled' }, { ...AUTH, 'x-sim': 'images=4' })).data,
      ).toHaveLength(1);
    });

    it('keeps references plus outputs within 15', async () => {
      const reference = `data:image/png;base64,${solidImage('png', 8, 8).base64}`;
      const answer = await answerOf(
        { sequential_image_generation: 'auto', image: Array.from({ length: 10 }, () => reference) },
        { ...AUTH, 'x-sim': 'images=15' },
      );
      expect(answer.data).toHaveLength(5);
    });

    it('fails one item with a per-item error under block=output, billing only the others', async () => {
      const answer = await answerOf(
        { sequential_image_generation: 'auto', sequential_image_generation_options: { max_images: 3 } },
        { ...AUTH, 'x-sim': 'block=output' },
      );
      expect(answer.data.map((item) => Object.keys(item).sort())).toEqual([
        ['size', 'url'],
        ['size', 'url'],
        ['error'],
      ]);
      expect(answer.data[2].error?.code).toBe('OutputImageSensitiveContentDetected');
      expect(answer.usage.generated_images).toBe(2);
    });

    it('fails a lone image entirely under block=output', async () => {
      const result = await generate({ model: MODEL, prompt: 'x' }, { ...AUTH, 'x-sim': 'block=output' });
      expect(result.status).toBe(400);
      expect(parseJson(result.text)).toMatchObject({
        error: { code: 'OutputImageSensitiveContentDetected', type: 'BadRequest' },
      });
    });
  });

  it('streams one event per item, the completion with usage, then [DONE]', async () => {
    const result = await generate(
      {
        model: MODEL,
        prompt: 'x',
        stream: true,
        sequential_image_generation: 'auto',
        response_format: 'b64_json',
      },
      { ...AUTH, 'x-sim': 'images=2;block=output' },
    );
    expect(result.headers.get('content-type')).toBe('text/event-stream');
    const events = result.text
      .split('\n\n')
      .filter(Boolean)
      .map(
        (event) =>
          event
            .split('\n')
            .find((line) => line.startsWith('data: '))
            ?.slice(6) ?? '',
      );
    expect(events.at(-1)).toBe('[DONE]');
    expect(events.slice(0, -1).map((event) => (JSON.parse(event) as { type: string }).type)).toEqual([
      'image_generation.partial_succeeded',
      'image_generation.partial_failed',
      'image_generation.completed',
    ]);
    expect(JSON.parse(events[2])).toMatchObject({ usage: { generated_images: 1 } });
  });

  describe('refusals in the eta envelope', () => {
    it.each([
      ['missing model', { prompt: 'x' }, 400, 'MissingParameter', 'model'],
      ['missing prompt', { model: MODEL }, 400, 'MissingParameter', 'prompt'],
      [
        'a prompt over 600 words',
        { model: MODEL, prompt: 'word '.repeat(601) },
        400,
        'InvalidParameter',
        'prompt',
      ],
      [
        'a prompt over 300 CJK characters',
        { model: MODEL, prompt: '山'.repeat(301) },
        400,
        'InvalidParameter',
        'prompt',
      ],
      [
        'size 1K on 4.5',
        { model: 'eta-iota-4-5-251128', prompt: 'x', size: '1K' },
        400,
        'InvalidParameter',
        'size',
      ],
      [
        'an area under the minimum',
        { model: MODEL, prompt: 'x', size: '1000x900' },
        400,
        'InvalidParameter',
        'size',
      ],
      [
        'an aspect over 16:1',
        { model: MODEL, prompt: 'x', size: '6000x300' },
        400,
        'InvalidParameter',
        'size',
      ],
      [
        '11 references on 4.0',
        { model: MODEL, prompt: 'x', image: Array(11).fill('https://example.test/a.png') },
        400,
        'InvalidParameter',
        'image',
      ],
      [
        'a data: URL that is no image',
        { model: MODEL, prompt: 'x', image: 'data:image/png;base64,aGVsbG8=' },
        400,
        'InvalidParameter.UnsupportedImageFormat',
        'image',
      ],
      [
        'a reference that is no URL',
        { model: MODEL, prompt: 'x', image: ['ftp://x'] },
        400,
        'InvalidParameter',
        'image',
      ],
      [
        'response_format base64',
        { model: MODEL, prompt: 'x', response_format: 'base64' },
        400,
        'InvalidParameter',
        'response_format',
      ],
      [
        'watermark as text',
        { model: MODEL, prompt: 'x', watermark: 'false' },
        400,
        'InvalidParameter',
        'watermark',
      ],
      [
        'sequential mode on',
        { model: MODEL, prompt: 'x', sequential_image_generation: 'on' },
        400,
        'InvalidParameter',
        'sequential_image_generation',
      ],
      [
        'max_images 16',
        { model: MODEL, prompt: 'x', sequential_image_generation_options: { max_images: 16 } },
        400,
        'InvalidParameter',
        'sequential_image_generation_options.max_images',
      ],
      ['a seed with a fraction', { model: MODEL, prompt: 'x', seed: 1.5 }, 400, 'InvalidParameter', 'seed'],
      ['an unknown model', { model: 'eta-iota-9', prompt: 'x' }, 404, 'InvalidEndpointOrModel.NotFound', ''],
    ])('%s → %i %s', async (_case, body, status, code, param) => {
      const result = await generate(body);
      expect(result.status).toBe(status);
      const requestId = result.headers.get('x-request-id');
      expect(parseJson(result.text)).toEqual({
        error: {
          code,
          message: expect.stringContaining(`Request id: ${requestId}`),
          param,
          type: expect.any(String),
        },
      });
    });

    it.each([
      ['missing', {}],
      ['wrong', { authorization: 'Bearer nope' }],
    ])('answers a %s key with 401', async (_case, headers) => {
      const result = await generate({ model: MODEL, prompt: 'x' }, headers);
      expect(result.status).toBe(401);
      expect(parseJson(result.text)).toMatchObject({
        error: { code: 'AuthenticationError', type: 'Unauthorized' },
      });
    });
  });

  describe('scripted error classes', () => {
    it.each([
      ['error=rate_limit', 429, 'TooManyRequests', 'RateLimitExceeded.EndpointRPMExceeded'],
      [
        'error=rate_limit;code=RateLimitExceeded.EndpointTPMExceeded',
        429,
        'TooManyRequests',
        'RateLimitExceeded.EndpointTPMExceeded',
      ],
      ['error=overload', 500, 'InternalServerError', 'InternalServiceError'],
      ['error=overload;status=429', 429, 'TooManyRequests', 'ServerOverloaded'],
      ['error=auth', 401, 'Unauthorized', 'AuthenticationError'],
      ['error=auth;status=403', 403, 'Forbidden', 'AccessDenied'],
      ['error=insufficient_balance', 403, 'Forbidden', 'AccountOverdueError'],
      ['error=bad_request', 400, 'BadRequest', 'InvalidParameter'],
      ['error=bad_request;status=404', 404, 'NotFound', 'InvalidEndpointOrModel.NotFound'],
      ['error=content_policy', 400, 'BadRequest', 'InputTextSensitiveContentDetected'],
      [
        'error=content_policy;code=InputImageSensitiveContentDetected',
        400,
        'BadRequest',
        'InputImageSensitiveContentDetected',
      ],
      ['block=prompt', 400, 'BadRequest', 'InputTextSensitiveContentDetected'],
      ['hang=50', 504, 'GatewayTimeout', 'RequestTimeout'],
    ])('%s → %i %s %s', async (directives, status, type, code) => {
      const result = await generate({ model: MODEL, prompt: 'x' }, { ...AUTH, 'x-sim': directives });
      expect(result.status).toBe(status);
      expect(parseJson(result.text)).toMatchObject({ error: { type, code } });
    });

    it('adds Retry-After when scripted', async () => {
      const result = await generate(
        { model: MODEL, prompt: 'x' },
        { ...AUTH, 'x-sim': 'error=rate_limit;retry_after=4' },
      );
      expect(result.headers.get('retry-after')).toBe('4');
    });
  });

  it('journals the request, watermark included, and answers unknown /api/v3 paths in its envelope', async () => {
    await postJson(`${simulator.url}/__sim/reset`, {});
    await answerOf({ watermark: false });
    const [entry] = JSON.parse((await getUrl(`${simulator.url}/__sim/requests`)).text) as JournalEntry[];
    expect(JSON.parse(entry.body)).toMatchObject({ watermark: false });
    const unknown = await postJson(`${simulator.url}/api/v3/unknown`, {}, AUTH);
    expect(unknown.status).toBe(404);
    expect(parseJson(unknown.text)).toMatchObject({ error: { type: 'NotFound' } });
  });
});
