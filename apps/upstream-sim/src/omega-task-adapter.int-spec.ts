import type { VideoCall, VideoRequest } from '@gateway/providers-core';
import { upstreamFailureOf, videoRequestOf } from '@gateway/providers-core/testing';
import { DEFAULT_OMEGA_KEY } from '@gateway/simulators';
import {
  completedOutputUrl,
  expectMp4Download,
  plannedVideoCall,
  pollUntilSettled,
  registeredVideoTask,
  taskContext,
} from './testing/registered-video-task.util';
import { useSimulatorSession } from './testing/simulator-session';

const omega = registeredVideoTask('omega');
const FRAME = 'https://example.test/first-frame.png';

const planned = (fields: Partial<VideoRequest> = {}): VideoCall =>
  plannedVideoCall(
    omega.rules,
    videoRequestOf({ model: 'omega2.6-t2v:1280*720', prompt: 'a fox runs', ...fields }),
  );

describe('omega task adapter against the omega simulator', () => {
  const simulator = useSimulatorSession();
  const contextFor = (directives = '', apiKey = DEFAULT_OMEGA_KEY) =>
    taskContext(simulator.contextFor(apiKey, directives));

  it.each([
    ['omega2.6-t2v:1280*720', '1280x720', { size: '1280*720' }, '720p'],
    ['omega2.6-t2v:1920*1080', '1920*1080', { size: '1920*1080' }, '1080p'],
    ['omega2.6-t2v:1080*1920', undefined, { size: '1080*1920' }, '1080p'],
  ])('sends %s (client size %s) as %j and completes at %s', async (model, size, parameters, resolution) => {
    const context = contextFor('polls=2');
    const call = planned({ model, size, resolution: size, seconds: 10 });
    const { handle } = await omega.task.submit({ upstreamModel: model, request: call }, context);
    const received = await simulator.lastReceived();
    expect(received.headers['x-omega-async']).toBe('enable');
    expect(JSON.parse(received.body)).toEqual({
      model: 'omega2.6-t2v',
      input: { prompt: 'a fox runs' },
      parameters: { ...parameters, duration: 10 },
    });
    const { phases, outcome } = await pollUntilSettled(omega.task, handle, context);
    expect(phases).toEqual(['queued', 'processing']);
    expect(outcome).toMatchObject({
      state: 'completed',
      outputs: [{ url: expect.stringContaining('/files/video_'), contentType: 'video/mp4' }],
      usage: { video: { seconds: 10, resolution } },
    });
  });

  it.each([
    ['omega2.6-i2v:1280*720', '720P', '720p'],
    ['omega2.6-i2v:1920*1080', '1080P', '1080p'],
  ])(
    'sends %s with img_url and resolution %s, and downloads the video',
    async (model, wireResolution, tier) => {
      const context = contextFor();
      const call = planned({
        model,
        prompt: undefined,
        seconds: 15,
        images: [{ role: 'first_frame', url: FRAME, source: 'image' }],
        metadata: { output_config: { audio_generation: 'Disabled' }, seed: 7 },
      });
      const { handle } = await omega.task.submit({ upstreamModel: model, request: call }, context);
      expect(await simulator.lastReceivedJson()).toEqual({
        model: 'omega2.6-i2v',
        input: { img_url: FRAME },
        parameters: { resolution: wireResolution, duration: 15, audio: false, seed: 7 },
      });
      const { outcome } = await pollUntilSettled(omega.task, handle, context);
      await expectMp4Download(completedOutputUrl(outcome));
      expect(outcome).toEqual(
        expect.objectContaining({ usage: { video: { seconds: 15, resolution: tier } } }),
      );
    },
  );

  it.each([
    ['block=output', 'content_policy', false, 'DataInspectionFailed'],
    ['error=overload;error_after=1', 'overload', true, 'InternalError'],
    ['finish=canceled', 'bad_request', false, 'CANCELED'],
    ['finish=unknown', 'bad_request', false, 'UNKNOWN'],
  ])('fails a task scripted %s as %s', async (directives, kind, retryable, upstreamCode) => {
    const context = contextFor(directives);
    const { handle } = await omega.task.submit(
      { upstreamModel: 'omega2.6-t2v:1280*720', request: planned() },
      context,
    );
    const { outcome } = await pollUntilSettled(omega.task, handle, context);
    expect(outcome).toEqual({
      state: 'failed',
      failure: expect.objectContaining({ kind, retryable, upstreamCode }),
    });
  });

  it.each([
    [
      'error=rate_limit;retry_after=2',
      { kind: 'rate_limit', upstreamCode: 'Throttling.RateQuota', httpStatus: 429, retryAfterMs: 2000 },
    ],
    ['error=overload', { kind: 'overload', retryable: true, upstreamCode: 'InternalError', httpStatus: 500 }],
    [
      'error=auth;status=403',
      { kind: 'auth', retryable: false, upstreamCode: 'AccessDenied', httpStatus: 403 },
    ],
    [
      'error=insufficient_balance',
      { kind: 'insufficient_balance', upstreamCode: 'Arrearage', httpStatus: 400 },
    ],
    [
      'block=prompt',
      { kind: 'content_policy', retryable: false, upstreamCode: 'DataInspectionFailed', httpStatus: 400 },
    ],
    [
      'error=bad_request',
      { kind: 'bad_request', retryable: false, upstreamCode: 'InvalidParameter', httpStatus: 400 },
    ],
  ])('turns a submission answered %s into %o', async (directives, failure) => {
    const error = await upstreamFailureOf(
      omega.task.submit(
        { upstreamModel: 'omega2.6-t2v:1280*720', request: planned() },
        contextFor(directives),
      ),
    );
    expect(error.failure).toMatchObject(failure);
  });

  it('turns a wrong key into auth, and a size in the wrong form into bad_request naming the asterisk', async () => {
    const wrongKey = await upstreamFailureOf(
      omega.task.submit(
        { upstreamModel: 'omega2.6-t2v:1280*720', request: planned() },
        contextFor('', 'nope'),
      ),
    );
    expect(wrongKey.failure).toMatchObject({ kind: 'auth', upstreamCode: 'InvalidApiKey', httpStatus: 401 });
    const unplanned = { ...planned(), size: '1280x720' };
    const refused = await upstreamFailureOf(
      omega.task.submit({ upstreamModel: 'omega2.6-t2v:1280*720', request: unplanned }, contextFor()),
    );
    expect(refused.failure).toMatchObject({ kind: 'bad_request', upstreamCode: 'InvalidParameter' });
    expect(refused.failure.message).toContain('asterisk');
  });

  it('times out a submission the upstream holds silent past the headers timeout', async () => {
    const context = { ...contextFor('hang=5000'), headersTimeoutMs: 200 };
    const error = await upstreamFailureOf(
      omega.task.submit({ upstreamModel: 'omega2.6-t2v:1280*720', request: planned() }, context),
    );
    expect(error.failure.kind).toBe('timeout');
  });

  it('fails the poll of a task the upstream does not know (UNKNOWN)', async () => {
    const result = await omega.task.poll({ taskId: 'no-such-task', seconds: 5, tier: '720p' }, contextFor());
    expect(result).toMatchObject({
      state: 'failed',
      failure: { kind: 'bad_request', upstreamCode: 'UNKNOWN' },
    });
  });
});
