import type {
  JsonHandle,
  TaskAdapterContext,
  TaskPollResult,
  VideoCall,
  VideoImage,
  VideoRequest,
} from '@gateway/providers-core';
import { upstreamFailureOf, videoRequestOf } from '@gateway/providers-core/testing';
import { DEFAULT_ALPHA_KEY } from '@gateway/simulators';
import { PNG } from 'pngjs';
import { plannedVideoCall, registeredVideoTask, taskContext } from './testing/registered-video-task.util';
import { useSimulatorSession } from './testing/simulator-session';

const alpha = registeredVideoTask('alpha');

// Filter type 0: pngjs's adaptive filters call Math.abs per byte, which Jest's sandbox slows ~200×.
const FRAME = `data:image/png;base64,${PNG.sync.write(new PNG({ width: 320, height: 180 }), { filterType: 0 }).toString('base64')}`;
const URL_A = 'https://images.example.test/a.png';
/** Enough answers for a task scripted `polls=2` to end, and a bound on a test that would loop. */
const MAX_POLLS = 5;

const image = (role: VideoImage['role'], url: string, source: string): VideoImage => ({ role, url, source });

/** The call the registered rules plan for a request, as the gateway stores it on the task row. */
const plannedCall = (fields: Partial<VideoRequest>): VideoCall =>
  plannedVideoCall(
    alpha.rules,
    videoRequestOf({ model: 'alphaq2-pro', prompt: 'a fox runs through snow', ...fields }),
  );

describe('alpha adapters against the alpha simulator', () => {
  const simulator = useSimulatorSession();
  const contextFor = (directives = '', apiKey = DEFAULT_ALPHA_KEY): TaskAdapterContext => ({
    ...taskContext(simulator.contextFor(apiKey, directives), 'video_test'),
    headersTimeoutMs: 2000,
  });
  const submit = async (call: VideoCall, directives = '', model = 'alphaq2-pro') =>
    (await alpha.task.submit({ upstreamModel: model, request: call }, contextFor(directives))).handle;
  /** Polls until the task ends, keeping every answer. */
  const pollToEnd = async (handle: JsonHandle, directives = ''): Promise<TaskPollResult[]> => {
    const answers: TaskPollResult[] = [];
    while (answers.length < MAX_POLLS) {
      const answer = await alpha.task.poll(handle, contextFor(directives));
      answers.push(answer);
      if (answer.state !== 'pending') break;
    }
    return answers;
  };

  it('is registered with both capabilities', () => {
    expect(alpha.rules.servesVideoModel('alphaq3-pro')).toBe(true);
    expect(alpha.task).toBeDefined();
  });

  it('runs a text-to-video task from submission to the downloaded video', async () => {
    const handle = await submit(
      plannedCall({ seconds: 8, aspectRatio: '9:16', extras: { seed: 42 } }),
      'polls=2',
    );
    const received = await simulator.lastReceived();
    expect(received).toMatchObject({ method: 'POST', path: '/ent/v2/text2video', authenticated: true });
    expect(JSON.parse(received.body)).toEqual({
      model: 'alphaq2-pro',
      prompt: 'a fox runs through snow',
      duration: 8,
      resolution: '720p',
      aspect_ratio: '9:16',
      seed: 42,
    });
    const answers = await pollToEnd(handle);
    expect(answers.slice(0, 2)).toEqual([
      { state: 'pending', phase: 'queued' },
      { state: 'pending', phase: 'processing' },
    ]);
    const done = answers[2];
    if (done.state !== 'completed') throw new Error(`expected completed, got ${done.state}`);
    expect(done.usage).toEqual({ video: { seconds: 8, resolution: '720p' } });
    expect(done.outputs).toEqual([
      { url: expect.stringMatching(/\/files\/video_\w+\.mp4$/), contentType: 'video/mp4' },
    ]);
    const download = await fetch(done.outputs[0].url as string);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('video/mp4');
    expect(
      Buffer.from(await download.arrayBuffer())
        .subarray(4, 8)
        .toString('latin1'),
    ).toBe('ftyp');
  });

  it.each([
    [
      'a first frame (OpenAI style image) to img2video',
      { images: [image('first_frame', FRAME, 'image')] },
      '/ent/v2/img2video',
      { images: [FRAME] },
    ],
    [
      'a first and last frame (metadata.last_frame_url) to start-end2video',
      {
        images: [image('last_frame', URL_A, 'metadata.last_frame_url'), image('first_frame', FRAME, 'image')],
      },
      '/ent/v2/start-end2video',
      { images: [FRAME, URL_A] },
    ],
    [
      'reference images (OpenAI style images) to reference2video as alphaq2',
      { images: [image('reference', URL_A, 'images'), image('reference', FRAME, 'images')] },
      '/ent/v2/reference2video',
      { model: 'alphaq2', images: [URL_A, FRAME] },
    ],
    [
      'subjects to reference2video',
      { prompt: '@cat on a sofa', subjects: [{ id: 'cat', images: [URL_A, FRAME], voiceId: 'v-1' }] },
      '/ent/v2/reference2video',
      { model: 'alphaq2', subjects: [{ id: 'cat', images: [URL_A, FRAME], voice_id: 'v-1' }] },
    ],
  ])('sends %s and completes', async (_, fields, path, sent) => {
    const handle = await submit(plannedCall(fields as Partial<VideoRequest>));
    const received = await simulator.lastReceived();
    expect(received.path).toBe(path);
    expect(JSON.parse(received.body)).toMatchObject(sent);
    const [answer] = await pollToEnd(handle);
    expect(answer).toMatchObject({
      state: 'completed',
      usage: { video: { seconds: 5, resolution: '720p' } },
    });
  });

  it('runs q3 with audio and q1 at its fixed 5 s and 1080p', async () => {
    const q3 = await submit(
      plannedCall({ model: 'alphaq3-pro', seconds: 16, extras: { audio: true } }),
      '',
      'alphaq3-pro',
    );
    expect(JSON.parse((await simulator.lastReceived()).body)).toMatchObject({
      model: 'alphaq3-pro',
      duration: 16,
      audio: true,
    });
    expect((await pollToEnd(q3))[0]).toMatchObject({ state: 'completed', usage: { video: { seconds: 16 } } });
    const q1 = await submit(plannedCall({ model: 'alphaq1', extras: { style: 'anime' } }), '', 'alphaq1');
    expect(JSON.parse((await simulator.lastReceived()).body)).toMatchObject({
      duration: 5,
      resolution: '1080p',
      style: 'anime',
    });
    expect((await pollToEnd(q1))[0]).toMatchObject({ usage: { video: { seconds: 5, resolution: '1080p' } } });
  });

  it.each([
    ['error=content_policy;error_after=1', 'content_policy', 'CreationPolicyViolation'],
    ['block=output', 'content_policy', 'CreationPolicyViolation'],
    ['error=overload;error_after=1', 'overload', 'InternalServiceFailure'],
    ['finish=failed;code=UserCancelled', 'bad_request', 'UserCancelled'],
  ])('fails a task the upstream fails after submission (%s)', async (directives, kind, upstreamCode) => {
    const handle = await submit(plannedCall({}), directives);
    const answers = await pollToEnd(handle);
    expect(answers.at(-1)).toMatchObject({ state: 'failed', failure: { kind, upstreamCode } });
  });

  it('keeps a task in a state outside the table pending', async () => {
    const handle = await submit(plannedCall({}), 'finish=paused');
    const answers = await pollToEnd(handle);
    expect(answers).toHaveLength(MAX_POLLS);
    expect(answers.every((answer) => answer.state === 'pending' && answer.phase === undefined)).toBe(true);
  });

  it.each([
    ['error=rate_limit;retry_after=3', 'rate_limit', 429, true],
    ['error=rate_limit;code=OperationInProcess', 'rate_limit', 400, true],
    ['error=overload', 'overload', 500, true],
    ['error=bad_request', 'bad_request', 400, false],
    ['error=content_policy', 'content_policy', 400, false],
    ['block=prompt', 'content_policy', 400, false],
    ['error=insufficient_balance', 'insufficient_balance', 400, false],
    ['error=auth;status=403', 'auth', 403, false],
  ])('turns a submission scripted %s into %s', async (directives, kind, httpStatus, retryable) => {
    const error = await upstreamFailureOf(submit(plannedCall({}), directives));
    expect(error.failure).toMatchObject({ kind, httpStatus, retryable });
    if (directives.includes('retry_after')) expect(error.failure.retryAfterMs).toBe(3000);
  });

  it('turns a wrong key into auth and a silent upstream into a timeout', async () => {
    const wrongKey = await upstreamFailureOf(
      alpha.task.submit(
        { upstreamModel: 'alphaq2-pro', request: plannedCall({}) },
        contextFor('', 'not-the-key'),
      ),
    );
    expect(wrongKey.failure).toMatchObject({ kind: 'auth', httpStatus: 401, upstreamCode: 'Unauthorized' });
    const silent = await upstreamFailureOf(
      alpha.task.submit(
        { upstreamModel: 'alphaq2-pro', request: plannedCall({}) },
        { ...contextFor('hang=5000'), headersTimeoutMs: 200 },
      ),
    );
    expect(silent.failure.kind).toBe('timeout');
  });

  it('asks again after a query the upstream rate-limits, and fails a task it does not know', async () => {
    const handle = await submit(plannedCall({}));
    const limited = await upstreamFailureOf(alpha.task.poll(handle, contextFor('error=rate_limit')));
    expect(limited.failure).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(
      await alpha.task.poll({ taskId: '123456789012345678', seconds: 5, resolution: '720p' }, contextFor()),
    ).toMatchObject({
      state: 'failed',
      failure: { kind: 'bad_request', httpStatus: 404, upstreamCode: 'TaskNotFound' },
    });
  });
});
