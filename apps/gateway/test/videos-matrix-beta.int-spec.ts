import { holdsOf } from './alpha-demo';
import type { GatewayHarness } from './gateway-harness';
import { holdOf, newVideoAccount } from './video-demo';
import {
  MatrixClient,
  matrixPrice,
  receivedUpstream,
  startMatrixStack,
  type MatrixStack,
  UPSTREAM_CREATE,
  type MatrixDemo,
} from './video-matrix.demo';

const FIRST = 'https://img.example.test/first.png';
const LAST = 'https://img.example.test/last.png';

/**
 * beta video (upstreams §4.3) end to end through `POST /v1/videos` (JSON) and `POST /v1/video/create`
 * with `GET /v1/video/query` (the `/bt` routes have their own test): the `req_key` the simulator
 * received follows the image count (0, 1, 2), the resolution and the model; `frames` follows the
 * seconds; each task completes on the interface's words, downloads, and settles once at its tier.
 * Values outside a style's sets are refused naming the allowed ones, with nothing held.
 */
describe('beta video through the generic video routes', () => {
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

  it.each([
    [
      'openai',
      'beta-video-3.0, no image, 1280x720',
      { model: 'beta-video-3.0', size: '1280x720', seconds: '5' },
      { req_key: 'beta_t2v_v30', frames: 121, aspect_ratio: '16:9' },
      5,
      '720p',
    ],
    [
      'openai',
      'beta-video-3.0, one image, 1080P by metadata',
      {
        model: 'beta-video-3.0',
        image: FIRST,
        seconds: '10',
        metadata: { output_config: { resolution: '1080P' } },
      },
      { req_key: 'beta_i2v_first_v30_1080', image_urls: [FIRST], frames: 241 },
      10,
      '1080p',
    ],
    [
      'openai',
      'beta-video-2.0, no image, 720x1280',
      { model: 'beta-video-2.0', size: '720x1280' },
      { req_key: 'beta_vgfm_t2v_l20', frames: 121, aspect_ratio: '9:16' },
      5,
      '720p',
    ],
    [
      'unified',
      'beta-video-3.0, two images, 720P',
      { model: 'beta-video-3.0', images: [FIRST, LAST], size: '720P', duration: 15 },
      { req_key: 'beta_i2v_first_tail_v30', image_urls: [FIRST, LAST], frames: 361 },
      15,
      '720p',
    ],
    [
      'unified',
      'beta-video-3.0, no image, 1080P, 21:9',
      { model: 'beta-video-3.0', size: '1080P', aspect_ratio: '21:9', duration: 5 },
      { req_key: 'beta_t2v_v30_1080p', frames: 121, aspect_ratio: '21:9' },
      5,
      '1080p',
    ],
    [
      'unified',
      'beta-video-2.0, one image',
      { model: 'beta-video-2.0', images: [FIRST], duration: 10 },
      { req_key: 'beta_vgfm_i2v_l20', image_urls: [FIRST], frames: 241 },
      10,
      '720p',
    ],
  ] as const)(
    '%s style, %s: the req_key and frames received; completes, downloads, settles once',
    async (style, _case, fields, wire, seconds, tier) => {
      const text = prompt(`A lighthouse in fog (${_case})`);
      const body = { prompt: text, ...fields };
      const created = style === 'openai' ? await client.create(body) : await client.createUnified(body);
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ status: 'queued', seconds: String(seconds) });
      expect((await holdOf(harness, created.body.id))?.amount).toBe(matrixPrice(seconds, tier));

      expect(await receivedUpstream(harness, UPSTREAM_CREATE.beta, text)).toEqual({ prompt: text, ...wire });
      await client.expectCompleted(created.body.id, matrixPrice(seconds, tier), style);
    },
  );

  describe('values outside a style set: 400 naming the allowed values, nothing held', () => {
    let stranger: { key: string; accountId: string };

    beforeAll(async () => {
      stranger = await newVideoAccount(harness);
    });

    it.each([
      ['openai', { aspect_ratio: '4:3' }, 'aspect_ratio', 'aspect_ratio must be one of 16:9, 9:16, 1:1'],
      ['openai', { size: '1080P' }, 'size', 'size must be one of 720x1280, 1280x720'],
      ['openai', { seconds: '7' }, 'seconds', 'seconds must be one of 5, 10, 15'],
      ['unified', { size: '1280x720' }, 'size', 'size must be one of 720P, 1080P'],
      ['unified', { aspect_ratio: '2:3' }, 'aspect_ratio', 'must be one of 16:9, 9:16, 1:1, 4:3, 3:4, 21:9'],
      ['unified', { duration: 6 }, 'duration', 'duration must be one of 5, 10, 15'],
    ] as const)('%s style %j → names %s', async (style, fields, param, message) => {
      const body = { model: 'beta-video-3.0', prompt: 'Out of the set', ...fields };
      const answer =
        style === 'openai'
          ? await client.create(body, stranger.key)
          : await client.createUnified(body, stranger.key);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ param, message: expect.stringContaining(message) });
    });

    it('held nothing for any of them', async () => {
      expect(await holdsOf(harness, stranger.accountId)).toBe(0);
    });
  });

  it('leaves the books balanced', async () => {
    await harness.settledBooks(demo.accountId);
  });
});
