import { imageSize } from 'image-size';
import OpenAI, { toFile } from 'openai';
import { PNG } from 'pngjs';
import { solidImage } from '../image-bytes.util';
import { RunningSimulator, startSimulator } from '../server';
import { getBytes } from '../testing/simulator-client.util';

/** The published OpenAI-style client must read the simulated image wire without complaint. */
describe('compat images through a real OpenAI-style client', () => {
  let simulator: RunningSimulator;
  let client: OpenAI;

  beforeAll(async () => {
    simulator = await startSimulator();
    client = new OpenAI({ apiKey: 'sim-compat-key', baseURL: `${simulator.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => simulator.close());

  it('generates with draw-3 as a URL and with img-1 as Base64', async () => {
    const byUrl = await client.images.generate({ model: 'draw-3', prompt: 'a fox', size: '1024x1792' });
    const download = await getBytes(byUrl.data?.[0].url ?? '');
    expect(imageSize(download.bytes)).toMatchObject({ width: 1024, height: 1792 });
    const byBase64 = await client.images.generate({ model: 'img-1', prompt: 'a fox', quality: 'medium' });
    expect(byBase64.usage?.output_tokens).toBe(1056);
    expect(imageSize(Buffer.from(byBase64.data?.[0].b64_json ?? '', 'base64'))).toMatchObject({
      width: 1024,
    });
  });

  it('edits with an image and a mask', async () => {
    const image = await toFile(solidImage('png', 256, 256).bytes, 'image.png', { type: 'image/png' });
    // Filter type 0: pngjs's adaptive filters call Math.abs per byte, which Jest's sandbox slows ~200×.
    const maskBytes = PNG.sync.write(new PNG({ width: 256, height: 256 }), { filterType: 0 });
    const mask = await toFile(maskBytes, 'mask.png', { type: 'image/png' });
    const edited = await client.images.edit({
      model: 'draw-2',
      prompt: 'a hat',
      image,
      mask,
      size: '256x256',
    });
    expect(imageSize((await getBytes(edited.data?.[0].url ?? '')).bytes)).toMatchObject({
      width: 256,
      height: 256,
    });
  });

  it('surfaces the img-* refusal of response_format as a BadRequestError', async () => {
    const failure = await client.images
      .generate({ model: 'img-2', prompt: 'x', response_format: 'url' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect((failure as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('unknown_parameter');
  });
});
