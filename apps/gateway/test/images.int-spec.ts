import { toFile } from 'openai';
import { waitFor } from '@gateway/testing';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';
import {
  base64ImageSize,
  downloadedImage,
  imageHarnessEnv,
  openAiClient,
  pngOf,
  seedImageDemo,
  type ImageDemo,
} from './image-demo';

type Size = NonNullable<Parameters<ReturnType<typeof openAiClient>['images']['generate']>[0]['size']>;

describe('images through the official client (compat families)', () => {
  let harness: GatewayHarness;
  let gateway: GatewayInstance;
  let demo: ImageDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start(imageHarnessEnv());
    gateway = await harness.startSimulatorTrustingInstance();
    demo = await seedImageDemo(harness);
  });
  afterAll(() => harness.close());

  const client = () => openAiClient(gateway.url, demo.key);

  it.each([
    ['img-1', '1536x1024', 1536, 1024],
    ['img-2', '4:3', 1536, 1152],
    ['draw-2', '512x512', 512, 512],
    ['draw-3', '1792x1024', 1792, 1024],
    ['zeta-4-2-image', '16:9', 2560, 1440],
  ])('%s at %s answers url and b64_json of %i x %i', async (model, size, width, height) => {
    const asUrl = await client().images.generate({
      model,
      prompt: 'A lighthouse at dawn',
      size: size as Size,
      response_format: 'url',
    });
    expect(asUrl.data).toHaveLength(1);
    const url = asUrl.data?.[0].url ?? '';
    expect(url.startsWith(`${gateway.url}/files/`)).toBe(true);
    expect(await downloadedImage(url)).toMatchObject({ width, height });

    const asBase64 = await client().images.generate({
      model,
      prompt: 'A lighthouse at dawn',
      size: size as Size,
      response_format: 'b64_json',
    });
    expect(base64ImageSize(asBase64.data?.[0].b64_json ?? '')).toEqual({ width, height });
  });

  it('falls back from a non-native img-2-pro preset to the closest size, and says so', async () => {
    const { data, response } = await client()
      .images.generate({
        model: 'img-2-pro',
        prompt: 'A harbour',
        size: '4:3(4K)' as Size,
        response_format: 'b64_json',
      })
      .withResponse();
    expect(response.headers.get('x-gateway-warning')).toMatch(/4:3/);
    const { width, height } = base64ImageSize(data.data?.[0].b64_json ?? '');
    expect(width * height).toBeLessThanOrEqual(8_294_400);
    expect(width / height).toBeCloseTo(4 / 3, 1);
  });

  it.each([
    ['img-1', 1024, '1024x1024'],
    ['draw-2', 512, '512x512'],
  ])('edits an image with a mask on %s and answers a URL of the asked size', async (model, side, size) => {
    const answer = await client().images.edit({
      model,
      prompt: 'Add a red boat',
      image: await toFile(pngOf(side, side), 'input.png', { type: 'image/png' }),
      mask: await toFile(pngOf(side, side, true), 'mask.png', { type: 'image/png' }),
      size: size as Size,
      response_format: 'url',
    });
    const url = answer.data?.[0].url ?? '';
    expect(await downloadedImage(url)).toMatchObject({ width: side, height: side });
    await harness.settled();
    const [log] = await harness.query<{ image_count: number; http_status: number; model: string }>(
      'select image_count, http_status, model from request_logs where key_id = $1 and route = $2 order by id desc limit 1',
      [demo.keyId, '/v1/images/edits'],
    );
    expect(log).toEqual({ image_count: 1, http_status: 200, model });
  });

  it('edits several images sent as repeated image[] parts', async () => {
    const answer = await client().images.edit({
      model: 'img-1',
      prompt: 'Blend them',
      image: [
        await toFile(pngOf(1024, 1024), 'a.png', { type: 'image/png' }),
        await toFile(pngOf(1024, 1024), 'b.png', { type: 'image/png' }),
      ],
      size: '1024x1024',
    });
    expect(answer.data).toHaveLength(1);
  });

  // kappa is answered at its 1K tier, at the default 1:1 ratio.
  it.each([
    ['eta', 'eta-iota-4-5-251128', { size: '16:9' as Size }, 2560, 1440],
    ['kappa', 'kappa-3-pro-image-preview', {}, 1024, 1024],
  ])(
    'serves the %s image family %s through its own channel type, url and b64_json',
    async (type, model, fields, width, height) => {
      await harness.seedImageChannel({ type, model, secret: `sim-${type}-key`, perImageMicros: 30_000n });
      // The serving instance learns of the new channel through Redis, after the admin's answer.
      await waitFor(async () => (await client().models.list()).data.some((entry) => entry.id === model));
      for (const format of ['url', 'b64_json'] as const) {
        const answer = await client().images.generate({
          model,
          prompt: 'A lighthouse at dawn',
          ...fields,
          response_format: format,
        });
        const item = answer.data?.[0];
        const size = item?.url ? await downloadedImage(item.url) : base64ImageSize(item?.b64_json ?? '');
        expect(size).toMatchObject({ width, height });
      }
    },
  );

  it('declares the image routes and the stored files in the OpenAPI document', async () => {
    const document = await harness.request<{ paths: Record<string, Record<string, unknown>> }>(
      'GET',
      '/docs/openapi.json',
    );
    expect(Object.keys(document.body.paths['/v1/images/generations'])).toEqual(['post']);
    expect(document.body.paths['/v1/images/edits'].post).toMatchObject({
      requestBody: { content: { 'multipart/form-data': expect.any(Object) } },
    });
    expect(Object.keys(document.body.paths['/files/{id}'])).toEqual(['get']);
  });

  describe('stored images', () => {
    let url: string;
    let bytes: Buffer;

    beforeAll(async () => {
      const answer = await client().images.generate({ model: 'draw-2', prompt: 'A kite', size: '256x256' });
      url = answer.data?.[0].url ?? '';
      bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
    });

    it('serves the whole file without a key, with its content type', async () => {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('accept-ranges')).toBe('bytes');
      expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    });

    it('serves a byte range, a suffix range, and refuses a range past the end with 416', async () => {
      const partial = await fetch(url, { headers: { range: 'bytes=0-7' } });
      expect(partial.status).toBe(206);
      expect(partial.headers.get('content-range')).toBe(`bytes 0-7/${bytes.length}`);
      expect(Buffer.from(await partial.arrayBuffer()).equals(bytes.subarray(0, 8))).toBe(true);

      const suffix = await fetch(url, { headers: { range: 'bytes=-4' } });
      expect(suffix.status).toBe(206);
      expect(Buffer.from(await suffix.arrayBuffer()).equals(bytes.subarray(bytes.length - 4))).toBe(true);

      const past = await fetch(url, { headers: { range: `bytes=${bytes.length}-` } });
      expect(past.status).toBe(416);
      expect(past.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    });

    it('answers 404 in the OpenAI-style envelope for an unknown or malformed id', async () => {
      const unknown = url.replace(/[0-9a-f]{32}$/, '0'.repeat(32));
      for (const missing of [
        unknown,
        `${gateway.url}/files/not-an-id`,
        `${gateway.url}/files/..%2F..%2Fetc`,
      ]) {
        const response = await fetch(missing);
        expect(response.status).toBe(404);
        expect(((await response.json()) as { error: { type: string } }).error.type).toBe(
          'invalid_request_error',
        );
      }
    });
  });
});
