import type { TaskAdapterContext, VideoCall, VideoRequest } from '@gateway/providers-core';
import { upstreamFailureOf, videoRequestOf } from '@gateway/providers-core/testing';
import { DEFAULT_BETA_KEY, DEFAULT_BETA_RELAY_KEY } from '@gateway/simulators';
import { PNG } from 'pngjs';
import {
  completedOutputUrl,
  expectMp4Download,
  plannedVideoCall,
  pollUntilSettled,
  registeredVideoTask,
  taskContext,
} from './testing/registered-video-task.util';
import { useSimulatorSession } from './testing/simulator-session';

const beta = registeredVideoTask('beta');
const FRAME_URL = 'https://images.test/first.png';
const LAST_URL = 'https://images.test/last.png';

const planned = (fields: Partial<VideoRequest> = {}): VideoCall =>
  plannedVideoCall(
    beta.rules,
    videoRequestOf({ model: 'beta-video-3.0', prompt: 'a kite over the dunes', ...fields }),
  );

/**
 * The beta channel type's video calls against the beta simulator over HTTP, signed (BETA-HMAC-SHA256)
 * and through a relay key: the req_key each plan selects is one the simulated upstream accepts, and
 * the task runs to a downloadable video or to the failure the simulator scripts.
 */
describe('beta task adapter running video against the beta simulator', () => {
  const simulator = useSimulatorSession();
  const contextFor = (directives = '', secret = DEFAULT_BETA_KEY): TaskAdapterContext =>
    taskContext(simulator.parsedKeyContextFor('beta', secret, directives));
  const submit = (call: VideoCall, context: TaskAdapterContext, upstreamModel = 'beta-video-3.0') =>
    beta.task.submit({ upstreamModel, request: call }, context);

  it.each([
    ['signed', DEFAULT_BETA_KEY, '/'],
    ['relay', DEFAULT_BETA_RELAY_KEY, '/bt'],
  ])(
    'runs a %s text task from in_queue through generating to a downloadable MP4',
    async (_mode, key, path) => {
      const context = contextFor('polls=2', key);
      const call = planned({ size: '1280x720', resolution: '1280x720', seconds: 10 });
      const { handle } = await submit(call, context);
      const submitted = await simulator.lastReceived();
      expect(submitted).toMatchObject({ path, authenticated: true });
      expect(JSON.parse(submitted.body)).toEqual({
        req_key: 'beta_t2v_v30',
        prompt: 'a kite over the dunes',
        frames: 241,
        aspect_ratio: '16:9',
      });
      const { phases, outcome } = await pollUntilSettled(beta.task, handle, context);
      expect(phases).toEqual(['queued', 'processing']);
      expect(outcome).toMatchObject({
        state: 'completed',
        outputs: [{ url: expect.stringContaining('/files/video_'), contentType: 'video/mp4' }],
        usage: { video: { seconds: 10, resolution: '720p' } },
      });
      await expectMp4Download(completedOutputUrl(outcome));
    },
  );

  it.each([
    [
      'unified 1080P with two frames, relayed',
      { style: 'unified' as const, size: '1080P', resolution: '1080P', seconds: 15 },
      [FRAME_URL, LAST_URL],
      DEFAULT_BETA_RELAY_KEY,
      { req_key: 'beta_i2v_first_tail_v30_1080', image_urls: [FRAME_URL, LAST_URL], frames: 361 },
    ],
    [
      'OpenAI style with a first frame, signed',
      { seconds: 5 },
      [FRAME_URL],
      DEFAULT_BETA_KEY,
      { req_key: 'beta_i2v_first_v30', image_urls: [FRAME_URL], frames: 121 },
    ],
  ])('selects the req_key of %s', async (_case, fields, urls, key, expected) => {
    const images = urls.map((url) => ({ role: 'reference' as const, url, source: 'images' }));
    const context = contextFor('', key);
    const { handle } = await submit(planned({ ...fields, images }), context);
    expect(JSON.parse((await simulator.lastReceived()).body)).toEqual({
      prompt: 'a kite over the dunes',
      ...expected,
    });
    expect((await pollUntilSettled(beta.task, handle, context)).outcome.state).toBe('completed');
  });

  it('sends an uploaded first frame of beta-video-2.0 as bare Base64', async () => {
    // Filter type 0: pngjs's adaptive filters call Math.abs per byte, which Jest's sandbox slows ~200×.
    const png = PNG.sync.write(new PNG({ width: 640, height: 360 }), { filterType: 0 }).toString('base64');
    const frame = {
      role: 'first_frame' as const,
      url: `data:image/png;base64,${png}`,
      source: 'input_reference',
    };
    const context = contextFor();
    const { handle } = await submit(
      planned({ model: 'beta-video-2.0', images: [frame] }),
      context,
      'beta-video-2.0',
    );
    expect(JSON.parse((await simulator.lastReceived()).body)).toMatchObject({
      req_key: 'beta_vgfm_i2v_l20',
      binary_data_base64: [png],
    });
    expect((await pollUntilSettled(beta.task, handle, context)).outcome.state).toBe('completed');
  });

  it.each([
    ['a blocked output', 'block=output', { kind: 'content_policy', retryable: true, upstreamCode: '50516' }],
    [
      'a failure after a pending answer',
      'error=overload;error_after=1',
      { kind: 'overload', upstreamCode: '50500' },
    ],
    ['an expired task', 'finish=expired', { kind: 'bad_request', upstreamCode: 'expired' }],
  ])('fails the task on %s', async (_case, directives, failure) => {
    const context = contextFor(directives);
    const { handle } = await submit(planned(), context);
    const { outcome } = await pollUntilSettled(beta.task, handle, context);
    expect(outcome).toEqual({ state: 'failed', failure: expect.objectContaining(failure) });
  });

  it('keeps a task with a status outside the table pending', async () => {
    const context = contextFor('finish=paused');
    const { handle } = await submit(planned(), context);
    expect(await beta.task.poll(handle, context)).toEqual({ state: 'pending' });
  });

  it.each([
    [
      'a rate limit',
      contextFor.bind(null, 'error=rate_limit;retry_after=2'),
      { kind: 'rate_limit', retryAfterMs: 2000 },
    ],
    [
      'a blocked prompt',
      contextFor.bind(null, 'block=prompt'),
      { kind: 'content_policy', upstreamCode: '50412' },
    ],
    ['a wrong secret', () => contextFor('', 'sim-beta-ak|wrong-secret'), { kind: 'auth', httpStatus: 401 }],
    ['an unknown relay key', () => contextFor('', 'sk-unknown'), { kind: 'auth', httpStatus: 401 }],
  ])('refuses a submission on %s', async (_case, context, failure) => {
    const error = await upstreamFailureOf(submit(planned(), context()));
    expect(error.failure).toMatchObject(failure);
  });
});
