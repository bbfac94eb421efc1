import type { VideoCall, VideoRequest } from '@gateway/providers-core';
import { upstreamFailureOf, videoRequestOf } from '@gateway/providers-core/testing';
import { DEFAULT_ETA_KEY } from '@gateway/simulators';
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

const eta = registeredVideoTask('eta');
const TASKS_PATH = '/api/v3/contents/generations/tasks';

const planned = (fields: Partial<VideoRequest> = {}): VideoCall =>
  plannedVideoCall(
    eta.rules,
    videoRequestOf({ model: 'eta-theta-1-0-pro_720p', prompt: 'a paper boat on a pond', ...fields }),
  );

// Filter type 0: pngjs's adaptive filters call Math.abs per byte, which Jest's sandbox slows ~200×.
const pngDataUrl = (width: number, height: number): string =>
  `data:image/png;base64,${PNG.sync.write(new PNG({ width, height }), { filterType: 0 }).toString('base64')}`;

/**
 * The eta channel type's theta 1.x video against the eta simulator over HTTP: the suffixed model
 * becomes the versioned id and resolution, the frames go as roles in content[], and the task runs to
 * a downloadable video, a scripted failure, or a cancellation while queued.
 */
describe('theta task adapter against the eta simulator', () => {
  const simulator = useSimulatorSession();
  const contextFor = (directives = '', apiKey = DEFAULT_ETA_KEY) =>
    taskContext(simulator.contextFor(apiKey, directives));
  const submit = (call: VideoCall, directives = '', upstreamModel = 'eta-theta-1-0-pro_720p') =>
    eta.task.submit({ upstreamModel, request: call }, contextFor(directives));

  it('creates a text task on the versioned model, polls queued → running → succeeded and downloads it', async () => {
    const call = planned({ seconds: 8, aspectRatio: '21:9', metadata: { seed: 11, camera_fixed: true } });
    const { handle } = await submit(call, 'polls=2');
    const created = await simulator.lastReceived();
    expect(created).toMatchObject({ method: 'POST', path: TASKS_PATH, authenticated: true });
    expect(JSON.parse(created.body)).toEqual({
      model: 'eta-theta-1-0-pro-250528',
      content: [{ type: 'text', text: 'a paper boat on a pond' }],
      resolution: '720p',
      ratio: '21:9',
      duration: 8,
      seed: 11,
      camera_fixed: true,
    });
    const { phases, outcome } = await pollUntilSettled(eta.task, handle, contextFor());
    expect(phases).toEqual(['queued', 'processing']);
    expect(outcome).toMatchObject({
      state: 'completed',
      outputs: [{ url: expect.stringContaining('/files/video_'), contentType: 'video/mp4' }],
      usage: { video: { seconds: 8, resolution: '720p' } },
    });
    await expectMp4Download(completedOutputUrl(outcome));
  });

  it('sends the multipart frames as data: URLs with their roles, keep_ratio as adaptive on 1.5', async () => {
    const first = pngDataUrl(360, 640);
    const last = pngDataUrl(360, 640);
    const call = planned({
      model: 'eta-theta-1-5-pro_1080p',
      prompt: '',
      size: 'keep_ratio',
      images: [
        { role: 'first_frame', url: first, source: 'first_frame_image' },
        { role: 'last_frame', url: last, source: 'last_frame_image' },
      ],
      metadata: { generate_audio: false },
    });
    const { handle } = await submit(call, '', 'eta-theta-1-5-pro_1080p');
    expect(JSON.parse((await simulator.lastReceived()).body)).toEqual({
      model: 'eta-theta-1-5-pro-251215',
      content: [
        { type: 'image_url', image_url: { url: first }, role: 'first_frame' },
        { type: 'image_url', image_url: { url: last }, role: 'last_frame' },
      ],
      resolution: '1080p',
      ratio: 'adaptive',
      duration: 5,
      generate_audio: false,
    });
    expect((await pollUntilSettled(eta.task, handle, contextFor())).outcome).toMatchObject({
      state: 'completed',
      usage: { video: { seconds: 5, resolution: '1080p' } },
    });
  });

  it('cancels a queued task through the wire, after which the poll reads it as ended', async () => {
    const { handle } = await submit(planned(), 'polls=3');
    await eta.task.cancel?.(handle, contextFor());
    expect(await simulator.lastReceived()).toMatchObject({ method: 'DELETE', authenticated: true });
    expect(await eta.task.poll(handle, contextFor())).toEqual({
      state: 'failed',
      cancelled: true,
      failure: expect.objectContaining({ kind: 'bad_request', upstreamCode: 'cancelled' }),
    });
  });

  it('cannot cancel a running task: the wire refuses, the task runs on', async () => {
    const { handle } = await submit(planned(), 'polls=2');
    await eta.task.poll(handle, contextFor());
    await eta.task.poll(handle, contextFor());
    const refused = await upstreamFailureOf(eta.task.cancel?.(handle, contextFor()) ?? Promise.resolve());
    expect(refused.failure).toMatchObject({ kind: 'bad_request', httpStatus: 400 });
    expect((await pollUntilSettled(eta.task, handle, contextFor())).outcome.state).toBe('completed');
  });

  it.each([
    [
      'a blocked output',
      'block=output',
      { kind: 'content_policy', upstreamCode: 'OutputVideoSensitiveContentDetected' },
    ],
    [
      'a failure after a pending answer',
      'error=overload;error_after=1',
      { kind: 'overload', upstreamCode: 'InternalServiceError' },
    ],
    ['an expired task', 'finish=expired', { kind: 'timeout', upstreamCode: 'expired' }],
  ])('fails the task on %s', async (_case, directives, failure) => {
    const { handle } = await submit(planned(), directives);
    const { outcome } = await pollUntilSettled(eta.task, handle, contextFor(directives));
    expect(outcome).toEqual({ state: 'failed', failure: expect.objectContaining(failure) });
  });

  it('keeps a task with a status outside the table pending, and throws a rate-limited query', async () => {
    const { handle } = await submit(planned(), 'finish=paused');
    expect(await eta.task.poll(handle, contextFor())).toEqual({ state: 'pending' });
    const limited = await upstreamFailureOf(
      eta.task.poll(handle, contextFor('error=rate_limit;retry_after=2')),
    );
    expect(limited.failure).toMatchObject({ kind: 'rate_limit', retryable: true, retryAfterMs: 2000 });
  });

  it('refuses a creation with a wrong key', async () => {
    const error = await upstreamFailureOf(
      eta.task.submit(
        { upstreamModel: 'eta-theta-1-0-pro_720p', request: planned() },
        contextFor('', 'not-the-key'),
      ),
    );
    expect(error.failure).toMatchObject({ kind: 'auth', httpStatus: 401 });
  });

  it.each([
    [
      'a blocked prompt',
      'block=prompt',
      { kind: 'content_policy', upstreamCode: 'InputTextSensitiveContentDetected' },
    ],
    ['an overdue account', 'error=insufficient_balance', { kind: 'insufficient_balance', httpStatus: 403 }],
    ['a closed model', 'error=bad_request;status=404', { kind: 'bad_request', httpStatus: 404 }],
  ])('refuses a creation on %s', async (_case, directives, failure) => {
    expect((await upstreamFailureOf(submit(planned(), directives))).failure).toMatchObject(failure);
  });
});
