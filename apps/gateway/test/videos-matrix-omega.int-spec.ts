import type { GatewayHarness } from './gateway-harness';
import { holdOf } from './video-demo';
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
 * omega (upstreams §8) end to end through every submission style of §11 that reaches it: `POST
 * /v1/videos` (JSON) and `POST /v1/video/create` with `GET /v1/video/query`. The part after the model's
 * colon reaches the simulator as an asterisk `parameters.size` (text to video) or as the tier in
 * `parameters.resolution` (image to video); the simulator refuses a submission without the
 * asynchronous header, so each completion shows it was sent; the money settles once by the `usage`
 * the query reports.
 */
describe('omega through the generic video routes', () => {
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
    ['omega2.6-t2v:1280*720', { size: '1280x720', seconds: '10' }, { size: '1280*720' }, 10, '720p'],
    ['omega2.6-t2v:1920*1080', {}, { size: '1920*1080' }, 5, '1080p'],
    [
      'omega2.6-i2v:1920*1080',
      { image: FRAME_DATA_URL, seconds: '15' },
      { resolution: '1080P' },
      15,
      '1080p',
    ],
  ] as const)(
    "/v1/videos %s: the name's suffix in the wire's form; completes, downloads, settles once",
    async (model, fields, wireOutput, seconds, tier) => {
      const text = prompt(`A kite over the dunes on ${model}`);
      const created = await client.create({ model, prompt: text, ...fields });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ status: 'queued', seconds: String(seconds) });
      expect((await holdOf(harness, created.body.id))?.amount).toBe(matrixPrice(seconds, tier));

      const received = await receivedUpstream(harness, UPSTREAM_CREATE.omega, text);
      expect(received).toEqual({
        model: model.slice(0, model.indexOf(':')),
        input: { prompt: text, ...('image' in fields ? { img_url: FRAME_DATA_URL } : {}) },
        parameters: { ...wireOutput, duration: seconds },
      });
      await client.expectCompleted(created.body.id, matrixPrice(seconds, tier));
    },
  );

  it('/v1/video/create and /v1/video/query: one image on omega2.6-i2v:1280*720 is the first frame at 720P', async () => {
    const text = prompt('A lantern drifts on a river');
    const created = await client.createUnified({
      model: 'omega2.6-i2v:1280*720',
      prompt: text,
      images: [FRAME_URL],
      duration: 10,
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ task_id: created.body.id, status: 'queued', seconds: '10' });

    expect(await receivedUpstream(harness, UPSTREAM_CREATE.omega, text)).toEqual({
      model: 'omega2.6-i2v',
      input: { prompt: text, img_url: FRAME_URL },
      parameters: { resolution: '720P', duration: 10 },
    });
    await client.expectCompleted(created.body.id, matrixPrice(10, '720p'), 'unified');
  });

  it('/v1/video/create: text to video on the asterisk size of the model name', async () => {
    const text = prompt('Waves against a pier');
    const created = await client.createUnified({ model: 'omega2.6-t2v:1280*720', prompt: text, duration: 5 });
    expect(created.status).toBe(200);
    expect((await receivedUpstream(harness, UPSTREAM_CREATE.omega, text)).parameters).toEqual({
      size: '1280*720',
      duration: 5,
    });
    await client.expectCompleted(created.body.id, matrixPrice(5, '720p'), 'unified');
  });

  it('leaves the books balanced', async () => {
    await harness.settledBooks(demo.accountId);
  });
});
