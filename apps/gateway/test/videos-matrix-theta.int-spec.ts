import { pngBytes } from './alpha-demo';
import type { GatewayHarness } from './gateway-harness';
import { holdOf } from './video-demo';
import {
  MatrixClient,
  matrixPrice,
  receivedUpstream,
  startMatrixStack,
  type MatrixStack,
  UPSTREAM_CREATE,
  type MatrixDemo,
} from './video-matrix.demo';

const FIRST_PNG = pngBytes(360, 640);
const LAST_PNG = pngBytes(368, 640);
const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;
const FRAME_URL = 'https://img.example.test/first.png';

/**
 * eta theta 1.x (upstreams §6.2) end to end through every submission style of §11 that reaches it:
 * `POST /v1/videos` as multipart with `first_frame_image` and `last_frame_image` files (interface spec,
 * image input by submission style) and as JSON, and `POST /v1/video/create` with `GET /v1/video/query`.
 * The suffix of the gateway's name reaches the simulator as the versioned upstream model and the
 * `resolution`; `size` becomes `ratio`, `seconds` `duration`; each task completes on the interface's
 * words, downloads, and settles once at the suffix's tier.
 */
describe('eta theta 1.x through the generic video routes', () => {
  let harness: GatewayHarness;
  let stack: MatrixStack;
  let demo: MatrixDemo;
  let client: MatrixClient;
  let marker = 0;

  beforeAll(async () => {
    stack = await startMatrixStack();
    ({ harness, demo, client } = stack);
  });
  afterAll(() => stack?.close());

  const prompt = (what: string) => `${what} #${++marker} [[sim polls=2]]`;

  it('/v1/videos multipart: the frame files go up as data: URLs with their roles, size keep_ratio as ratio', async () => {
    const text = prompt('A paper boat between two frames');
    const form = new FormData();
    form.set('model', 'eta-theta-1-0-pro_720p');
    form.set('prompt', text);
    form.set('seconds', '6');
    form.set('size', 'keep_ratio');
    form.set('first_frame_image', new Blob([FIRST_PNG], { type: 'image/png' }), 'first.png');
    form.set('last_frame_image', new Blob([LAST_PNG], { type: 'image/png' }), 'last.png');
    const created = await client.createForm(form);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: 'queued', seconds: '6' });
    expect((await holdOf(harness, created.body.id))?.amount).toBe(matrixPrice(6, '720p'));

    expect(await receivedUpstream(harness, UPSTREAM_CREATE.theta, text)).toEqual({
      model: 'eta-theta-1-0-pro-250528',
      content: [
        { type: 'text', text },
        { type: 'image_url', image_url: { url: dataUrl(FIRST_PNG) }, role: 'first_frame' },
        { type: 'image_url', image_url: { url: dataUrl(LAST_PNG) }, role: 'last_frame' },
      ],
      resolution: '720p',
      ratio: 'keep_ratio',
      duration: 6,
    });
    await client.expectCompleted(created.body.id, matrixPrice(6, '720p'));
  });

  it('/v1/videos JSON: eta-theta-1-5-pro_1080p is the 1.5 model at 1080p, size adaptive', async () => {
    const text = prompt('Fireflies over a meadow');
    const created = await client.create({
      model: 'eta-theta-1-5-pro_1080p',
      prompt: text,
      seconds: '4',
      size: 'adaptive',
    });
    expect(created.status).toBe(200);
    expect(await receivedUpstream(harness, UPSTREAM_CREATE.theta, text)).toEqual({
      model: 'eta-theta-1-5-pro-251215',
      content: [{ type: 'text', text }],
      resolution: '1080p',
      ratio: 'adaptive',
      duration: 4,
    });
    await client.expectCompleted(created.body.id, matrixPrice(4, '1080p'));
  });

  it('/v1/video/create and /v1/video/query: one image is the first frame of eta-theta-1-0-pro_480p', async () => {
    const text = prompt('A bell tower at noon');
    const created = await client.createUnified({
      model: 'eta-theta-1-0-pro_480p',
      prompt: text,
      images: [FRAME_URL],
      duration: 11,
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ task_id: created.body.id, status: 'queued', seconds: '11' });
    expect(await receivedUpstream(harness, UPSTREAM_CREATE.theta, text)).toEqual({
      model: 'eta-theta-1-0-pro-250528',
      content: [
        { type: 'text', text },
        { type: 'image_url', image_url: { url: FRAME_URL }, role: 'first_frame' },
      ],
      resolution: '480p',
      duration: 11,
    });
    await client.expectCompleted(created.body.id, matrixPrice(11, '480p'), 'unified');
  });

  it('leaves the books balanced', async () => {
    await harness.settledBooks(demo.accountId);
  });
});
