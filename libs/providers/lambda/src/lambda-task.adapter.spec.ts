import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LambdaTaskRequest } from '@gateway/dialects';
import type { PlainKeyCredentials, TaskAdapterContext, TaskPollResult } from '@gateway/providers-core';
import {
  receivedJson,
  upstreamFailureOf,
  useRecordedUpstreams,
  type RecordedResponse,
  type RecordedUpstream,
} from '@gateway/providers-core/testing';
import { lambdaTaskAdapter } from './lambda-task.adapter';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '__fixtures__', name));
const json = (name: string) => JSON.parse(fixture(name).toString('utf8'));

const T1 = '6f1e0c9a-5b8d-4d2e-9f41-0a7c3e2b1d01';
const T2 = '6f1e0c9a-5b8d-4d2e-9f41-0a7c3e2b1d02';
const MUSIC_HANDLE = { taskId: T1, action: 'music' };
const LYRICS_HANDLE = { taskId: T2, action: 'lyrics' };

const musicRequest = (fields: Partial<LambdaTaskRequest> = {}): LambdaTaskRequest => ({
  kind: 'lambda',
  action: 'music',
  fields: { prompt: 'city lights', title: 'Night Drive', tags: 'synthwave', make_instrumental: false },
  continueOf: null,
  ...fields,
});

describe('lambdaTaskAdapter', () => {
  const session = useRecordedUpstreams();
  let upstream: RecordedUpstream;
  const context = (): TaskAdapterContext<PlainKeyCredentials> =>
    session.taskContext(
      { baseUrl: upstream.baseUrl, credentials: { apiKey: 'lambda-key-0123' }, settings: {} },
      'music_task_1',
      { now: () => Date.UTC(2026, 10, 24, 12) },
    );
  /** Points the next calls at a new recorded upstream: a test that polls several answers starts one per answer. */
  const serve = async (routes: Record<string, RecordedResponse>) => {
    upstream = await session.replay(routes);
  };
  const answer = (status: number, name: string): RecordedResponse => ({
    status,
    headers: { 'content-type': 'application/json' },
    body: fixture(name),
  });
  const sentBody = (index = 0) => receivedJson(upstream, index);
  const pollWith = async (name: string, handle = MUSIC_HANDLE): Promise<TaskPollResult> => {
    await serve({ [`GET /lambda/fetch/${handle.taskId}`]: answer(200, name) });
    return lambdaTaskAdapter.poll(handle, context());
  };

  describe('submit', () => {
    it('submits music with the Bearer key and the channel’s model as mv, keeping the task id', async () => {
      await serve({ 'POST /lambda/submit/music': answer(200, 'submit-accepted.body') });
      const { handle } = await lambdaTaskAdapter.submit(
        { upstreamModel: 'lambda-v4', request: musicRequest() },
        context(),
      );
      const [sent] = upstream.requests;
      expect(sent.headers.authorization).toBe('Bearer lambda-key-0123');
      expect(sentBody()).toEqual({
        prompt: 'city lights',
        title: 'Night Drive',
        tags: 'synthwave',
        make_instrumental: false,
        mv: 'lambda-v4',
      });
      expect(handle).toEqual({ taskId: T1, action: 'music' });
    });

    it('sends lyrics without mv, and a continuation with the upstream id of its source task', async () => {
      await serve({
        'POST /lambda/submit/lyrics': answer(200, 'submit-accepted.body'),
        'POST /lambda/submit/music': answer(200, 'submit-accepted.body'),
      });
      await lambdaTaskAdapter.submit(
        {
          upstreamModel: 'lambda-v3-0',
          request: musicRequest({ action: 'lyrics', fields: { prompt: 'rain' } }),
        },
        context(),
      );
      await lambdaTaskAdapter.submit(
        {
          upstreamModel: 'lambda-v5',
          request: musicRequest({
            fields: { prompt: 'more', continue_clip_id: 'clip-1', continue_at: 30.5 },
            continueOf: { taskId: 'upstream-source', action: 'music' },
          }),
        },
        context(),
      );
      expect(sentBody(0)).toEqual({ prompt: 'rain' });
      expect(sentBody(1)).toEqual({
        prompt: 'more',
        continue_clip_id: 'clip-1',
        continue_at: 30.5,
        mv: 'lambda-v5',
        task_id: 'upstream-source',
      });
    });

    it.each([
      ['a 200 whose code is not success', 200, 'submit-refused.body', 'bad_request', false],
      ['401', 401, 'error-unauthorized.body', 'auth', false],
      ['402', 402, 'error-insufficient-balance.body', 'insufficient_balance', false],
      ['429', 429, 'error-too-many-requests.body', 'rate_limit', true],
      ['500', 500, 'error-internal.body', 'overload', true],
    ])('classifies %s by §9.5', async (_, status, name, kind, retryable) => {
      await serve({ 'POST /lambda/submit/music': answer(status, name) });
      const error = await upstreamFailureOf(
        lambdaTaskAdapter.submit({ upstreamModel: 'lambda-v4', request: musicRequest() }, context()),
      );
      expect(error.failure).toMatchObject({
        kind,
        retryable,
        httpStatus: status,
        message: json(name).message,
        upstreamCode: json(name).code,
      });
    });

    it('refuses a request that is not a lambda call without calling the upstream', async () => {
      await serve({});
      await expect(
        lambdaTaskAdapter.submit({ upstreamModel: 'lambda-v4', request: { prompt: 'x' } }, context()),
      ).rejects.toThrow(TypeError);
      expect(upstream.requests).toHaveLength(0);
    });
  });

  describe('poll', () => {
    it('reads the waiting words as queued and IN_PROGRESS as running, with the progress', async () => {
      expect(await pollWith('fetch-queued.body')).toEqual({ state: 'pending', phase: 'queued', progress: 0 });
      expect(await pollWith('fetch-in-progress.body')).toEqual({
        state: 'pending',
        phase: 'processing',
        progress: 50,
      });
    });

    it('keeps polling a task the upstream reports UNKNOWN, without a warning', async () => {
      expect(await pollWith('fetch-unknown.body')).toEqual({ state: 'pending', progress: 0 });
      expect(session.warnings).toEqual([]);
    });

    it('completes with the complete clips’ audio, their details, and the seconds they last', async () => {
      const result = await pollWith('fetch-success.body');
      const clips = json('fetch-success.body').data.data;
      expect(result).toEqual({
        state: 'completed',
        outputs: clips.map((clip: { audio_url: string }) => ({
          url: clip.audio_url,
          contentType: 'audio/mpeg',
          detail: clip,
        })),
        usage: { audio: { seconds: 300.75 } },
        warnings: [],
      });
    });

    it('leaves out a clip that failed, and fails a success without any complete clip', async () => {
      const partly = await pollWith('fetch-success-one-clip-failed.body');
      expect(partly).toMatchObject({ state: 'completed', usage: { audio: { seconds: 180.5 } } });
      expect(partly.state === 'completed' && partly.outputs).toHaveLength(1);
      expect(await pollWith('fetch-success-without-clips.body')).toMatchObject({
        state: 'failed',
        failure: { kind: 'overload', retryable: true },
      });
    });

    it('fails on a non-empty fail_reason whatever the status says', async () => {
      expect(await pollWith('fetch-failure.body')).toEqual({
        state: 'failed',
        failure: {
          kind: 'bad_request',
          retryable: false,
          message: 'lyrics rejected by moderation',
          upstreamCode: 'FAILURE',
        },
      });
      expect(await pollWith('fetch-success-with-fail-reason.body')).toMatchObject({
        state: 'failed',
        failure: { message: 'clip rejected', upstreamCode: 'SUCCESS' },
      });
    });

    it('completes lyrics with their text as the output', async () => {
      const result = await pollWith('fetch-lyrics.body', LYRICS_HANDLE);
      expect(result.state).toBe('completed');
      if (result.state !== 'completed') return;
      const [output] = result.outputs;
      expect(output.bytes?.toString('utf8')).toBe('[Verse]\nrain on a tin roof');
      expect(output).toMatchObject({
        contentType: 'text/plain; charset=utf-8',
        detail: { title: 'Tin Roof' },
      });
      expect(result.usage).toBeUndefined();
    });

    it('ends a task the upstream does not know, and throws what says nothing about it', async () => {
      await serve({ [`GET /lambda/fetch/${T1}`]: answer(404, 'error-task-not-found.body') });
      expect(await lambdaTaskAdapter.poll(MUSIC_HANDLE, context())).toMatchObject({
        state: 'failed',
        failure: { kind: 'bad_request', httpStatus: 404, upstreamCode: 'task_not_found' },
      });
      await serve({ [`GET /lambda/fetch/${T1}`]: answer(500, 'error-internal.body') });
      expect((await upstreamFailureOf(lambdaTaskAdapter.poll(MUSIC_HANDLE, context()))).failure.kind).toBe(
        'overload',
      );
    });
  });

  describe('pollMany', () => {
    it('asks about every task in one batch and answers them in the handles’ order', async () => {
      await serve({ 'POST /lambda/fetch': answer(200, 'fetch-many.body') });
      const missing = { taskId: 'not-listed', action: 'music' };
      const results = await lambdaTaskAdapter.pollMany?.([MUSIC_HANDLE, missing, LYRICS_HANDLE], context());
      expect(upstream.requests).toHaveLength(1);
      expect(sentBody()).toEqual({ ids: [T1, 'not-listed', T2] });
      expect(results?.map((result) => result.state)).toEqual(['completed', 'pending', 'pending']);
      expect(results?.[2]).toEqual({ state: 'pending', phase: 'processing', progress: 70 });
    });

    it('throws when the batch itself is refused, and asks nothing for no tasks', async () => {
      await serve({ 'POST /lambda/fetch': answer(429, 'error-too-many-requests.body') });
      expect(await lambdaTaskAdapter.pollMany?.([], context())).toEqual([]);
      const error = await upstreamFailureOf(
        lambdaTaskAdapter.pollMany?.([MUSIC_HANDLE], context()) ?? Promise.resolve(),
      );
      expect(error.failure).toMatchObject({ kind: 'rate_limit', retryable: true });
      expect(upstream.requests).toHaveLength(1);
    });
  });
});
