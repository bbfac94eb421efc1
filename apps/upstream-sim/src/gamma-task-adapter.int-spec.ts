import type { TaskAdapterContext, VideoCall, VideoRequest } from '@gateway/providers-core';
import { upstreamFailureOf, videoRequestOf } from '@gateway/providers-core/testing';
import { DEFAULT_GAMMA_KEY, type SimulatorStatsSnapshot } from '@gateway/simulators';
import {
  completedOutputUrl,
  expectMp4Download,
  plannedVideoCall,
  pollUntilSettled,
  registeredVideoTask,
  taskContext,
} from './testing/registered-video-task.util';
import { useSimulatorSession } from './testing/simulator-session';

const gamma = registeredVideoTask('gamma');
const FIRST = 'https://example.test/first.png';
const LAST = 'https://example.test/last.png';
const MOTION = 'https://example.test/motion.mp4';
const [SUB_APP_ID, SECRET_ID] = DEFAULT_GAMMA_KEY.split('|');

const planned = (fields: Partial<VideoRequest> = {}): VideoCall =>
  plannedVideoCall(gamma.rules, videoRequestOf({ model: 'gamma-3.0-omni', prompt: 'a fox runs', ...fields }));

describe('gamma task adapter against the gamma simulator', () => {
  const simulator = useSimulatorSession();
  /** A channel whose key is `secret`, parsed by the registered type as the gateway parses a row's. */
  const contextFor = (
    directives = '',
    secret = DEFAULT_GAMMA_KEY,
    submissionKey = `video_${Math.random().toString(36).slice(2, 14)}`,
  ): TaskAdapterContext =>
    taskContext(simulator.parsedKeyContextFor('gamma', secret, directives), submissionKey);
  const submit = (call: VideoCall, context: TaskAdapterContext, upstreamModel = 'gamma-3.0-omni') =>
    gamma.task.submit({ upstreamModel, request: call }, context);
  const stats = async (): Promise<SimulatorStatsSnapshot['byRoute']> => {
    const answer = await fetch(`${simulator.baseUrl()}/__sim/stats`);
    return ((await answer.json()) as SimulatorStatsSnapshot).byRoute;
  };

  it('submits a signed text task, polls it WAITING → PROCESSING → FINISH and downloads the video', async () => {
    const context = contextFor('polls=2');
    const call = planned({
      seconds: 10,
      resolution: '1080P',
      metadata: { output_config: { resolution: '1080P' } },
    });
    const { handle } = await submit(call, context);
    const received = await simulator.lastReceived();
    expect(received.authenticated).toBe(true);
    expect(received.headers).toMatchObject({
      'x-gamma-action': 'CreateAigcVideoTask',
      'x-gamma-version': '2018-07-17',
    });
    expect(received.headers['x-gamma-region']).toBeUndefined();
    expect(JSON.parse(received.body)).toEqual({
      SubAppId: Number(SUB_APP_ID),
      ModelName: 'Gamma',
      ModelVersion: '3.0-Omni',
      Prompt: 'a fox runs',
      OutputConfig: { Duration: 10, Resolution: '1080P' },
      SessionId: context.submissionKey,
    });
    const { phases, outcome } = await pollUntilSettled(gamma.task, handle, context);
    expect(phases).toEqual(['queued', 'processing']);
    expect(outcome).toEqual({
      state: 'completed',
      outputs: [{ url: expect.stringMatching(/\/files\/video_\w+\.mp4$/), contentType: 'video/mp4' }],
      usage: { video: { seconds: 10, resolution: '1080p' } },
      warnings: [],
    });
    await expectMp4Download(completedOutputUrl(outcome));
  });

  describe('the §5.4 mapping, as the simulator received it', () => {
    it('first and last frame, output_config key by key, offpeak and ext_info', async () => {
      const context = contextFor();
      const call = planned({
        model: 'gamma-2.6',
        seconds: 10,
        aspectRatio: '9:16',
        images: [
          { role: 'first_frame', url: FIRST, source: 'image' },
          { role: 'last_frame', url: LAST, source: 'metadata.last_frame_url' },
        ],
        metadata: {
          output_config: {
            storage_mode: 'Permanent',
            audio_generation: 'Enabled',
            person_generation: 'Disallowed',
          },
          offpeak: true,
          ext_info: { AdditionalParameters: { seed: 7 } },
        },
      });
      await submit(call, context, 'gamma-2.6');
      expect(await simulator.lastReceivedJson()).toEqual({
        SubAppId: Number(SUB_APP_ID),
        ModelName: 'Gamma',
        ModelVersion: '2.6',
        Prompt: 'a fox runs',
        FileInfos: [{ Type: 'Url', Category: 'Image', Url: FIRST }],
        LastFrameUrl: LAST,
        OutputConfig: {
          StorageMode: 'Permanent',
          AudioGeneration: 'Enabled',
          PersonGeneration: 'Disallowed',
          Duration: 10,
          Resolution: '720P',
          AspectRatio: '9:16',
          OffPeak: true,
        },
        ExtInfo: '{"AdditionalParameters":{"seed":7}}',
        SessionId: context.submissionKey,
      });
    });

    it('gamma-2.6-motion-pro-1080p: the scene, the reference video and 1080P', async () => {
      const context = contextFor();
      const call = planned({
        model: 'gamma-2.6',
        dimensions: { scene_type: 'motion', motion_level: 'pro', resolution: '1080p' },
        images: [{ role: 'first_frame', url: FIRST, source: 'image' }],
        metadata: { video_url: MOTION },
      });
      const { handle } = await submit(call, context, 'gamma-2.6');
      expect(await simulator.lastReceivedJson()).toMatchObject({
        ModelVersion: '2.6',
        FileInfos: [
          { Type: 'Url', Category: 'Image', Url: FIRST },
          { Type: 'Url', Category: 'Video', Url: MOTION },
        ],
        OutputConfig: { Duration: 5, Resolution: '1080P' },
        SceneType: 'motion_control',
      });
      expect((await pollUntilSettled(gamma.task, handle, context)).outcome).toMatchObject({
        usage: { video: { seconds: 5, resolution: '1080p' } },
      });
    });

    it('gamma-3.0-omni-1080p-ref-audio with native file_infos', async () => {
      const context = contextFor();
      const call = planned({
        dimensions: { resolution: '1080p', ref: 'true', audio: 'true' },
        seconds: 15,
        metadata: {
          file_infos: [
            { type: 'Url', category: 'Image', url: FIRST },
            { type: 'Url', category: 'Video', url: MOTION, reference_type: 'feature' },
          ],
        },
      });
      await submit(call, context);
      expect(await simulator.lastReceivedJson()).toMatchObject({
        ModelVersion: '3.0-Omni',
        FileInfos: [
          { Type: 'Url', Category: 'Image', Url: FIRST },
          { Type: 'Url', Category: 'Video', Url: MOTION, ReferenceType: 'feature' },
        ],
        OutputConfig: { Duration: 15, Resolution: '1080P', AudioGeneration: 'Enabled' },
      });
    });
  });

  it('resubmits under the same SessionId and gets the one upstream task back', async () => {
    const context = contextFor('', DEFAULT_GAMMA_KEY, 'video_resubmitted_once');
    const before = await stats();
    const first = await submit(planned(), context);
    const second = await submit(planned(), context);
    expect(second.handle).toEqual(first.handle);
    const after = await stats();
    const delta = (route: string) => (after[route] ?? 0) - (before[route] ?? 0);
    expect([
      delta('gamma:createAigcVideoTask'),
      delta('gamma:taskCreated'),
      delta('gamma:sessionReplay'),
    ]).toEqual([2, 1, 1]);
  });

  it('is accepted with a region in the key, sent as X-Gamma-Region', async () => {
    const context = contextFor('', `${DEFAULT_GAMMA_KEY}|north-2`);
    const { handle } = await submit(planned(), context);
    expect((await simulator.lastReceived()).headers['x-gamma-region']).toBe('north-2');
    expect((await pollUntilSettled(gamma.task, handle, context)).outcome.state).toBe('completed');
  });

  describe('failures', () => {
    it.each([
      ['error=overload;error_after=1', 'overload', 'InternalError'],
      ['block=output', 'content_policy', 'ContentAuditFailed'],
      ['finish=aborted', 'overload', 'ABORTED'],
      ['finish=empty', 'overload', 'FINISH'],
    ])('%s: the task fails as %s', async (directives, kind, upstreamCode) => {
      const context = contextFor(directives);
      const { handle } = await submit(planned(), context);
      expect((await pollUntilSettled(gamma.task, handle, context)).outcome).toMatchObject({
        state: 'failed',
        failure: { kind, upstreamCode },
      });
    });

    it('keeps a task in an unknown status pending', async () => {
      const context = contextFor('finish=paused');
      const { handle } = await submit(planned(), context);
      await expect(pollUntilSettled(gamma.task, handle, context, 3)).rejects.toThrow('still pending');
    });

    it.each([
      ['rate_limit', 'RequestLimitExceeded', true],
      ['overload', 'InternalError', true],
      ['auth', 'AuthFailure.SignatureFailure', false],
      ['bad_request', 'InvalidParameterValue', false],
      ['content_policy', 'InvalidParameterValue.ContentAudit', false],
      ['insufficient_balance', 'FailedOperation.InsufficientBalance', false],
    ])('error=%s on a submission is %s, classified', async (errorClass, upstreamCode, retryable) => {
      const error = await upstreamFailureOf(submit(planned(), contextFor(`error=${errorClass}`)));
      expect(error.failure).toMatchObject({ kind: errorClass, upstreamCode, retryable, httpStatus: 200 });
    });

    it('a quota limit asks for a long backoff', async () => {
      const error = await upstreamFailureOf(
        submit(planned(), contextFor('error=rate_limit;code=LimitExceeded')),
      );
      expect(error.failure).toMatchObject({ kind: 'rate_limit', retryAfterMs: 30_000 });
    });

    it('a query refused for the channel ends the task; one that says nothing about it is thrown', async () => {
      const context = contextFor();
      const { handle } = await submit(planned(), context);
      const failingContext = (directives: string) => ({
        ...contextFor(directives),
        submissionKey: context.submissionKey,
      });
      expect(await gamma.task.poll(handle, failingContext('error=insufficient_balance'))).toMatchObject({
        state: 'failed',
        failure: { kind: 'insufficient_balance' },
      });
      const thrown = await upstreamFailureOf(gamma.task.poll(handle, failingContext('error=rate_limit')));
      expect(thrown.failure.kind).toBe('rate_limit');
      expect(
        await gamma.task.poll(
          { taskId: `${SUB_APP_ID}-AigcVideo-00`, seconds: 5, resolution: '720p' },
          context,
        ),
      ).toMatchObject({
        state: 'failed',
        failure: { kind: 'bad_request', upstreamCode: 'ResourceNotFound' },
      });
    });

    it('the simulator refuses what the upstream model cannot do: 15 s on a channel mapped to 2.1', async () => {
      const error = await upstreamFailureOf(submit(planned({ seconds: 15 }), contextFor(), '2.1'));
      expect(error.failure).toMatchObject({ kind: 'bad_request', upstreamCode: 'InvalidParameterValue' });
    });
  });

  describe('signatures', () => {
    it.each([
      ['a wrong secret', `${SUB_APP_ID}|${SECRET_ID}|not-the-secret`, 'AuthFailure.SignatureFailure'],
      ['an unknown SecretId', `${SUB_APP_ID}|nobody|not-the-secret`, 'AuthFailure.SecretIdNotFound'],
    ])('with %s the call is refused as auth', async (_case, secret, upstreamCode) => {
      const error = await upstreamFailureOf(submit(planned(), contextFor('', secret)));
      expect(error.failure).toMatchObject({ kind: 'auth', retryable: false, upstreamCode });
      expect((await simulator.lastReceived()).authenticated).toBe(false);
    });

    it('a clock 301 s behind signs an expired request', async () => {
      const context = { ...contextFor(), clock: { now: () => Date.now() - 301_000 } };
      const error = await upstreamFailureOf(submit(planned(), context));
      expect(error.failure).toMatchObject({ kind: 'auth', upstreamCode: 'AuthFailure.SignatureExpire' });
    });
  });
});
