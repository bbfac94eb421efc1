import { holdsOf } from './alpha-demo';
import type { GatewayHarness } from './gateway-harness';
import { holdOf, newVideoAccount } from './video-demo';
import {
  FRAME_DATA_URL,
  MatrixClient,
  matrixPrice,
  receivedUpstream,
  startMatrixStack,
  type MatrixStack,
  UPSTREAM_CREATE,
  type MatrixDemo,
} from './video-matrix.demo';

const FRAME_URL = 'https://img.example.test/first.png';

/**
 * mu (upstreams §7) end to end through every submission style of §11 that reaches it: `POST /v1/videos`
 * (JSON) and `POST /v1/video/create` with `GET /v1/video/query`. What the simulator received shows the
 * mapping (the frame as `first_frame_image`, the resolution from `metadata.output_config.resolution`,
 * no aspect ratio on the wire, a warning saying so); each task completes on the interface's words,
 * downloads, and settles once.
 */
describe('mu through the generic video routes', () => {
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

  it('/v1/videos: the frame in image, 1080P from metadata.output_config.resolution, aspect_ratio dropped with a warning', async () => {
    const text = prompt('A fox leaps over a stream');
    const created = await client.create({
      model: 'mu-2.3',
      prompt: text,
      image: FRAME_DATA_URL,
      seconds: '6',
      size: '1280x720',
      aspect_ratio: '16:9',
      metadata: { output_config: { resolution: '1080P' } },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: 'queued', seconds: '6' });
    const warning = created.headers.get('x-gateway-warning') ?? '';
    expect(warning).toContain('aspect_ratio was ignored: mu-2.3 has no aspect ratio');
    expect(warning).toContain('size was ignored');
    expect((await holdOf(harness, created.body.id))?.amount).toBe(matrixPrice(6, '1080p'));

    expect(await receivedUpstream(harness, UPSTREAM_CREATE.mu, text)).toEqual({
      model: 'Mu-Video-2.3',
      prompt: text,
      duration: 6,
      resolution: '1080P',
      first_frame_image: FRAME_DATA_URL,
    });
    await client.expectCompleted(created.body.id, matrixPrice(6, '1080p'));
  });

  it('/v1/video/create and /v1/video/query: one image is the first frame; mu-2.3-fast, 10 s at the 768P default', async () => {
    const text = prompt('A heron takes off');
    const created = await client.createUnified({
      model: 'mu-2.3-fast',
      prompt: text,
      images: [FRAME_URL],
      duration: 10,
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ task_id: created.body.id, status: 'queued', seconds: '10' });

    expect(await receivedUpstream(harness, UPSTREAM_CREATE.mu, text)).toEqual({
      model: 'Mu-Video-2.3-Fast',
      prompt: text,
      duration: 10,
      resolution: '768P',
      first_frame_image: FRAME_URL,
    });
    await client.expectCompleted(created.body.id, matrixPrice(10, '768p'), 'unified');
  });

  it('refuses either model without an image, in both styles, naming image and holding nothing', async () => {
    const stranger = await newVideoAccount(harness);
    const answers = [
      await client.create({ model: 'mu-2.3', prompt: 'No frame' }, stranger.key),
      await client.createUnified({ model: 'mu-2.3-fast', prompt: 'No frame', images: [] }, stranger.key),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({
        param: 'image',
        message: expect.stringContaining('is image-to-video only: send the first frame in image'),
      });
    }
    expect(await holdsOf(harness, stranger.accountId)).toBe(0);
  });

  it('leaves the books balanced', async () => {
    await harness.settledBooks(demo.accountId);
  });
});
