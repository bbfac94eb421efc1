import type { VideoCall, VideoRequest } from '@gateway/providers-core';
import { upstreamFailureOf, videoRequestOf } from '@gateway/providers-core/testing';
import { DEFAULT_MU_KEY } from '@gateway/simulators';
import {
  completedOutputUrl,
  expectMp4Download,
  plannedVideoCall,
  pollUntilSettled,
  registeredVideoTask,
  taskContext,
} from './testing/registered-video-task.util';
import { useSimulatorSession } from './testing/simulator-session';

const mu = registeredVideoTask('mu');
const FRAME =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

const planned = (fields: Partial<VideoRequest> = {}): VideoCall =>
  plannedVideoCall(
    mu.rules,
    videoRequestOf({
      model: 'mu-2.3',
      prompt: 'a fox in the snow',
      images: [{ role: 'first_frame', url: FRAME, source: 'image' }],
      ...fields,
    }),
  );

describe('mu task adapter against the mu simulator', () => {
  const simulator = useSimulatorSession();
  const contextFor = (directives = '', apiKey = DEFAULT_MU_KEY) =>
    taskContext(simulator.contextFor(apiKey, directives));

  it('submits a first-frame video, polls through the waiting words to Success and downloads the file', async () => {
    const context = contextFor('polls=3');
    const call = planned({
      model: 'mu-2.3-fast',
      seconds: 6,
      resolution: '1080P',
      aspectRatio: '9:16',
      images: [{ role: 'first_frame', url: FRAME, source: 'input_reference' }],
      metadata: { output_config: { resolution: '1080P' }, prompt_optimizer: false },
    });
    const { handle } = await mu.task.submit({ upstreamModel: 'mu-2.3-fast', request: call }, context);
    expect(await simulator.lastReceivedJson()).toEqual({
      model: 'Mu-Video-2.3-Fast',
      prompt: 'a fox in the snow',
      duration: 6,
      resolution: '1080P',
      first_frame_image: FRAME,
      prompt_optimizer: false,
    });
    const { phases, outcome } = await pollUntilSettled(mu.task, handle, context);
    expect(phases).toEqual(['queued', 'queued', 'processing']);
    expect(outcome).toMatchObject({
      state: 'completed',
      outputs: [{ url: expect.stringContaining('/files/video_'), contentType: 'video/mp4' }],
      usage: { video: { seconds: 6, resolution: '1080p' } },
    });
    expect((await simulator.lastReceived()).path).toBe('/v1/files/retrieve');
    await expectMp4Download(completedOutputUrl(outcome));
  });

  it('gets a fresh download link from every poll of a finished task', async () => {
    const context = contextFor();
    const { handle } = await mu.task.submit(
      { upstreamModel: 'mu-2.3', request: planned({ seconds: 10 }) },
      context,
    );
    const first = await mu.task.poll(handle, context);
    const second = await mu.task.poll(handle, context);
    if (first.state !== 'completed' || second.state !== 'completed') throw new Error('not completed');
    expect(first.usage).toEqual({ video: { seconds: 10, resolution: '768p' } });
    expect(second.outputs[0].url).not.toBe(first.outputs[0].url);
  });

  it('fails a task whose output is blocked, with the output moderation code', async () => {
    const context = contextFor('block=output');
    const { handle } = await mu.task.submit({ upstreamModel: 'mu-2.3', request: planned() }, context);
    const { outcome } = await pollUntilSettled(mu.task, handle, context);
    expect(outcome).toEqual({
      state: 'failed',
      failure: expect.objectContaining({ kind: 'content_policy', retryable: false, upstreamCode: '1027' }),
    });
  });

  it('fails a task the upstream fails after a pending answer', async () => {
    const context = contextFor('error=overload;error_after=1');
    const { handle } = await mu.task.submit({ upstreamModel: 'mu-2.3', request: planned() }, context);
    const { phases, outcome } = await pollUntilSettled(mu.task, handle, context);
    expect(phases).toEqual(['queued']);
    expect(outcome).toMatchObject({ state: 'failed', failure: { kind: 'overload', upstreamCode: '1000' } });
  });

  it.each([
    ['rate_limit', 'error=rate_limit', true, '1002'],
    ['rate_limit', 'error=rate_limit;code=1039', true, '1039'],
    ['overload', 'error=overload;code=1013', true, '1013'],
    ['auth', 'error=auth', false, '1004'],
    ['insufficient_balance', 'error=insufficient_balance', false, '1008'],
    ['content_policy', 'block=prompt', false, '1026'],
    ['bad_request', 'error=bad_request', false, '2013'],
  ])(
    'turns a submission answered %s (%s) into that class',
    async (kind, directives, retryable, upstreamCode) => {
      const error = await upstreamFailureOf(
        mu.task.submit({ upstreamModel: 'mu-2.3', request: planned() }, contextFor(directives)),
      );
      expect(error.failure).toMatchObject({ kind, retryable, upstreamCode, httpStatus: 200 });
    },
  );

  it('turns a wrong key into auth (2049), and a call the rules would refuse into bad_request (2013)', async () => {
    const wrongKey = await upstreamFailureOf(
      mu.task.submit({ upstreamModel: 'mu-2.3', request: planned() }, contextFor('', 'not-the-key')),
    );
    expect(wrongKey.failure).toMatchObject({ kind: 'auth', upstreamCode: '2049' });
    const unplanned = { ...planned(), seconds: 5 };
    const refused = await upstreamFailureOf(
      mu.task.submit({ upstreamModel: 'mu-2.3', request: unplanned }, contextFor()),
    );
    expect(refused.failure).toMatchObject({ kind: 'bad_request', upstreamCode: '2013' });
    expect(refused.failure.message).toContain('duration must be 6 or 10');
  });

  it('times out a submission the upstream holds silent past the headers timeout', async () => {
    const context = { ...contextFor('hang=5000'), headersTimeoutMs: 200 };
    const error = await upstreamFailureOf(
      mu.task.submit({ upstreamModel: 'mu-2.3', request: planned() }, context),
    );
    expect(error.failure.kind).toBe('timeout');
  });

  it('answers a query for an unknown task as a bad request that ends the task', async () => {
    const error = await upstreamFailureOf(
      mu.task.poll({ taskId: '123456789012345', seconds: 6, tier: '768p' }, contextFor()),
    );
    expect(error.failure).toMatchObject({ kind: 'bad_request', retryable: false, upstreamCode: '2013' });
  });
});
