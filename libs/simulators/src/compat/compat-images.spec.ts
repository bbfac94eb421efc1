import { imageSize } from 'image-size';
import { JournalEntry } from '../request-journal';
import { RunningSimulator, startSimulator } from '../server';
import { getBytes, getUrl, parseJson, postJson, simulatorStats } from '../testing/simulator-client.util';

const AUTH = { authorization: 'Bearer sim-compat-key' };

interface ImageAnswer {
  created: number;
  data: Array<{ url?: string; b64_json?: string; revised_prompt?: string }>;
  background?: string;
  output_format?: string;
  quality?: string;
  size?: string;
  usage?: Record<string, unknown>;
}

describe('compat image generations', () => {
  let simulator: RunningSimulator;
  const generate = (body: unknown, headers: Record<string, string> = AUTH): ReturnType<typeof postJson> =>
    postJson(`${simulator.url}/v1/images/generations`, body, headers);
  const answerOf = async (body: unknown, headers?: Record<string, string>): Promise<ImageAnswer> => {
    const result = await generate(body, headers);
    expect(result.status).toBe(200);
    return JSON.parse(result.text) as ImageAnswer;
  };
  const sizeOfBase64 = (base64: string | undefined) => imageSize(Buffer.from(base64 ?? '', 'base64'));

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(() => simulator.close());

  it('answers img-1 with Base64 only, the resolved options and token usage', async () => {
    const answer = await answerOf({
      model: 'img-1',
      prompt: 'a lighthouse',
      size: '1536x1024',
      quality: 'low',
    });
    expect(answer).toEqual({
      created: expect.any(Number),
      data: [{ b64_json: expect.any(String) }],
      background: 'opaque',
      output_format: 'png',
      quality: 'low',
      size: '1536x1024',
      usage: {
        total_tokens: 3 + 408,
        input_tokens: 3,
        output_tokens: 408, // 272 tokens at 1024², times 1.5 for the area
        input_tokens_details: { text_tokens: 3, image_tokens: 0 },
      },
    });
    expect(sizeOfBase64(answer.data[0].b64_json)).toMatchObject({ type: 'png', width: 1536, height: 1024 });
  });

  it('reports img-1 defaults (quality auto as high, 1024x1024) and n images', async () => {
    const answer = await answerOf({ model: 'img-1', prompt: 'x', n: 3 });
    expect(answer.data).toHaveLength(3);
    expect(answer).toMatchObject({ quality: 'high', size: '1024x1024', usage: { output_tokens: 3 * 4160 } });
  });

  it.each([
    ['jpeg', 'jpg'],
    ['webp', 'webp'],
  ])('encodes img-* output_format %s', async (format, type) => {
    const answer = await answerOf({ model: 'img-2', prompt: 'x', size: '1536x1152', output_format: format });
    expect(answer.output_format).toBe(format);
    expect(sizeOfBase64(answer.data[0].b64_json)).toMatchObject({ type, width: 1536, height: 1152 });
  });

  it.each(['img-1', 'img-2', 'img-2-pro'])(
    'refuses response_format on %s with unknown_parameter',
    async (model) => {
      for (const responseFormat of ['url', 'b64_json']) {
        const result = await generate({ model, prompt: 'x', response_format: responseFormat });
        expect(result.status).toBe(400);
        expect(parseJson(result.text)).toEqual({
          error: {
            message: "Unknown parameter: 'response_format'.",
            type: 'invalid_request_error',
            param: 'response_format',
            code: 'unknown_parameter',
          },
        });
      }
    },
  );

  it('answers draw-3 with a URL and a revised prompt; the file is a PNG of the size asked for', async () => {
    const answer = await answerOf({
      model: 'draw-3',
      prompt: 'a fox',
      size: '1792x1024',
      quality: 'hd',
      style: 'natural',
    });
    expect(Object.keys(answer).sort()).toEqual(['created', 'data']);
    expect(answer.data).toEqual([
      { url: expect.stringMatching(/\/files\/img_\w+\.png$/), revised_prompt: 'a fox' },
    ]);
    const download = await getBytes(answer.data[0].url ?? '');
    expect(download).toMatchObject({ status: 200, contentType: 'image/png' });
    expect(imageSize(download.bytes)).toMatchObject({ width: 1792, height: 1024 });
  });

  it('lets text= script the revised prompt', async () => {
    const answer = await answerOf({ model: 'draw-3', prompt: 'a fox [[sim text=A%20red%20fox]]' });
    expect(answer.data[0].revised_prompt).toBe('A red fox');
  });

  it('answers draw-2 in Base64 when asked, n images of the listed size', async () => {
    const answer = await answerOf({
      model: 'draw-2',
      prompt: 'x',
      n: 2,
      size: '256x256',
      response_format: 'b64_json',
    });
    expect(answer.data).toHaveLength(2);
    expect(sizeOfBase64(answer.data[1].b64_json)).toMatchObject({ width: 256, height: 256 });
  });

  it('gives draw-* URLs 60 minutes (url_ttl= shortens it), after which the file answers 403', async () => {
    const answer = await answerOf({ model: 'draw-2', prompt: 'x' });
    const head = await fetch(answer.data[0].url ?? '', { method: 'HEAD' });
    const lifetimeMs = Date.parse(head.headers.get('expires') ?? '') - Date.now();
    expect(lifetimeMs).toBeGreaterThan(59 * 60 * 1000);
    expect(lifetimeMs).toBeLessThanOrEqual(60 * 60 * 1000);
    const expired = await answerOf({ model: 'draw-2', prompt: 'x' }, { ...AUTH, 'x-sim': 'url_ttl=0' });
    const gone = await getUrl(expired.data[0].url ?? '');
    expect(gone.status).toBe(403);
    expect(gone.text).toContain('<Code>AccessDenied</Code>');
    expect((await getUrl(`${simulator.url}/files/img_unknown.png`)).status).toBe(404);
  });

  it('answers zeta-4-2-image with URLs by default, Base64 on request, any size, and Base64 references', async () => {
    const byUrl = await answerOf({ model: 'zeta-4-2-image', prompt: 'x', size: '2560x1440' });
    expect(imageSize((await getBytes(byUrl.data[0].url ?? '')).bytes)).toMatchObject({
      width: 2560,
      height: 1440,
    });
    const reference = (
      await answerOf({ model: 'draw-2', prompt: 'r', size: '256x256', response_format: 'b64_json' })
    ).data[0].b64_json;
    const byBase64 = await answerOf({
      model: 'zeta-4-2-image',
      prompt: 'x',
      size: '1440x2560',
      response_format: 'b64_json',
      image: [reference, `data:image/png;base64,${reference}`],
    });
    expect(sizeOfBase64(byBase64.data[0].b64_json)).toMatchObject({ width: 1440, height: 2560 });
    const refused = await generate({ model: 'zeta-4-2-image', prompt: 'x', image: ['not an image'] });
    expect(refused.status).toBe(400);
    expect(parseJson(refused.text)).toMatchObject({ error: { param: 'image', code: 'invalid_value' } });
  });

  it('puts the call’s /@ prefix into its URLs, so the download meets the same directives', async () => {
    const result = await postJson(
      `${simulator.url}/@latency=1/v1/images/generations`,
      { model: 'draw-2', prompt: 'x' },
      AUTH,
    );
    const url = (JSON.parse(result.text) as ImageAnswer).data[0].url ?? '';
    expect(url.startsWith(`${simulator.url}/@latency=1/files/`)).toBe(true);
    expect((await getBytes(url)).status).toBe(200);
  });

  describe('refusals', () => {
    it.each([
      ['missing model', { prompt: 'x' }, 'model', 'missing_required_parameter'],
      ['missing prompt', { model: 'img-1' }, 'prompt', 'missing_required_parameter'],
      [
        'draw-2 prompt over 1000',
        { model: 'draw-2', prompt: 'p'.repeat(1001) },
        'prompt',
        'string_above_max_length',
      ],
      [
        'draw-3 prompt over 4000',
        { model: 'draw-3', prompt: 'p'.repeat(4001) },
        'prompt',
        'string_above_max_length',
      ],
      [
        'img-1 prompt over 32000',
        { model: 'img-1', prompt: 'p'.repeat(32001) },
        'prompt',
        'string_above_max_length',
      ],
      ['draw-3 n=2', { model: 'draw-3', prompt: 'x', n: 2 }, 'n', 'integer_above_max_value'],
      ['draw-2 n=11', { model: 'draw-2', prompt: 'x', n: 11 }, 'n', 'integer_above_max_value'],
      ['img-1 n=0', { model: 'img-1', prompt: 'x', n: 0 }, 'n', 'integer_below_min_value'],
      ['n as text', { model: 'img-1', prompt: 'x', n: '2' }, 'n', 'invalid_type'],
      ['draw-2 size 1792x1024', { model: 'draw-2', prompt: 'x', size: '1792x1024' }, 'size', 'invalid_value'],
      ['draw-3 size 512x512', { model: 'draw-3', prompt: 'x', size: '512x512' }, 'size', 'invalid_value'],
      ['img-1 size 2048x2048', { model: 'img-1', prompt: 'x', size: '2048x2048' }, 'size', 'invalid_value'],
      ['img-2 size 1920x1080', { model: 'img-2', prompt: 'x', size: '1920x1080' }, 'size', 'invalid_value'],
      [
        'img-2-pro size 4096x3072',
        { model: 'img-2-pro', prompt: 'x', size: '4096x3072' },
        'size',
        'invalid_value',
      ],
      ['draw-3 quality low', { model: 'draw-3', prompt: 'x', quality: 'low' }, 'quality', 'invalid_value'],
      ['img-1 quality hd', { model: 'img-1', prompt: 'x', quality: 'hd' }, 'quality', 'invalid_value'],
      ['draw-3 style', { model: 'draw-3', prompt: 'x', style: 'cubist' }, 'style', 'invalid_value'],
      [
        'draw-2 response_format',
        { model: 'draw-2', prompt: 'x', response_format: 'base64' },
        'response_format',
        'invalid_value',
      ],
      [
        'img-1 background',
        { model: 'img-1', prompt: 'x', background: 'green' },
        'background',
        'invalid_value',
      ],
      [
        'img-1 output_format',
        { model: 'img-1', prompt: 'x', output_format: 'gif' },
        'output_format',
        'invalid_value',
      ],
      [
        'img-1 output_compression',
        { model: 'img-1', prompt: 'x', output_compression: 101 },
        'output_compression',
        'invalid_value',
      ],
      [
        'img-1 moderation',
        { model: 'img-1', prompt: 'x', moderation: 'high' },
        'moderation',
        'invalid_value',
      ],
    ])('%s → 400 naming %s', async (_case, body, param, code) => {
      const result = await generate(body);
      expect(result.status).toBe(400);
      expect(parseJson(result.text)).toEqual({
        error: { message: expect.any(String), type: 'invalid_request_error', param, code },
      });
    });

    it('names the allowed sizes of draw-3', async () => {
      const result = await generate({ model: 'draw-3', prompt: 'x', size: '256x256' });
      expect(parseJson(result.text)).toMatchObject({
        error: {
          message:
            "Invalid value: '256x256'. Supported values are: '1024x1024', '1792x1024', and '1024x1792'.",
        },
      });
    });

    it('accepts fields the family does not have without effect (style on img-1, background on img-2)', async () => {
      await answerOf({ model: 'img-1', prompt: 'x', style: 'vivid' });
      expect((await answerOf({ model: 'img-2', prompt: 'x', background: 'transparent' })).background).toBe(
        'opaque',
      );
    });

    it('answers unknown- models with 404, a missing key with 401 and bad JSON with 400', async () => {
      expect((await generate({ model: 'unknown-img', prompt: 'x' })).status).toBe(404);
      expect((await generate({ model: 'img-1', prompt: 'x' }, {})).status).toBe(401);
      expect((await generate('{"model":')).status).toBe(400);
    });
  });

  describe('scripted outcomes', () => {
    it.each([
      ['img-1', 'block=prompt', 'image_generation_user_error', 'moderation_blocked'],
      ['img-2', 'block=output', 'image_generation_user_error', 'moderation_blocked'],
      ['img-2-pro', 'error=content_policy', 'image_generation_user_error', 'moderation_blocked'],
      ['draw-3', 'block=prompt', 'invalid_request_error', 'content_policy_violation'],
      ['draw-2', 'error=content_policy', 'invalid_request_error', 'content_policy_violation'],
      ['zeta-4-2-image', 'block=output', 'invalid_request_error', 'content_policy_violation'],
    ])('%s with %s → 400 %s/%s', async (model, directives, type, code) => {
      const result = await generate({ model, prompt: 'x' }, { ...AUTH, 'x-sim': directives });
      expect(result.status).toBe(400);
      expect(parseJson(result.text)).toMatchObject({ error: { type, code } });
    });

    it.each([
      ['error=rate_limit', 429, 'rate_limit_exceeded'],
      ['error=insufficient_balance', 429, 'insufficient_quota'],
      ['error=overload', 503, 'server_is_overloaded'],
      ['error=overload;status=500', 500, 'server_error'],
      ['error=auth', 401, 'invalid_api_key'],
      ['error=bad_request', 400, 'invalid_value'],
      ['hang=50', 504, 'timeout'],
    ])('%s → %i %s', async (directives, status, code) => {
      const result = await generate({ model: 'img-1', prompt: 'x' }, { ...AUTH, 'x-sim': directives });
      expect(result.status).toBe(status);
      expect(parseJson(result.text)).toMatchObject({ error: { code } });
    });

    it('reports scripted usage', async () => {
      const answer = await answerOf({ model: 'img-1', prompt: 'x [[sim usage=7/9]]' });
      expect(answer.usage).toMatchObject({ input_tokens: 7, output_tokens: 9, total_tokens: 16 });
    });
  });

  it('counts and journals what it received', async () => {
    await postJson(`${simulator.url}/__sim/reset`, {});
    await answerOf({ model: 'img-2-pro', prompt: 'ratio 16:9', size: '3840x2160' });
    expect((await simulatorStats(simulator.url)).byRoute).toEqual({ 'compat:imageGenerations': 1 });
    const [entry] = JSON.parse((await getUrl(`${simulator.url}/__sim/requests`)).text) as JournalEntry[];
    expect(entry).toMatchObject({ path: '/v1/images/generations', authenticated: true });
    expect(JSON.parse(entry.body)).toEqual({ model: 'img-2-pro', prompt: 'ratio 16:9', size: '3840x2160' });
  });
});
