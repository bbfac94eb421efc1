import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonHandle, PlainKeyCredentials, TaskAdapterContext, VideoCall } from '@gateway/providers-core';
import {
  receivedJson,
  upstreamFailureOf,
  useRecordedUpstreams,
  videoCallOf,
  type RecordedUpstream,
} from '@gateway/providers-core/testing';
import { alphaTaskAdapter } from './alpha-task.adapter';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '__fixtures__', name));
const json = (name: string) => JSON.parse(fixture(name).toString('utf8'));

const TASK_ID = '916198342210367488';
const CREATIONS = `GET /ent/v2/tasks/${TASK_ID}/creations`;
const FIRST = 'https://images.example.test/first.png';
const LAST = 'data:image/png;base64,iVBORw0KGgo=';

const videoCall = (fields: Partial<VideoCall> = {}): VideoCall =>
  videoCallOf({
    family: 'alpha',
    prompt: 'a fox runs through snow',
    seconds: 5,
    resolution: '720p',
    size: null,
    ...fields,
  });

const HANDLE: JsonHandle = { taskId: TASK_ID, seconds: 5, resolution: '720p' };

describe('alphaTaskAdapter', () => {
  const session = useRecordedUpstreams();
  let upstream: RecordedUpstream;
  const context = (): TaskAdapterContext<PlainKeyCredentials> =>
    session.taskContext(
      { baseUrl: upstream.baseUrl, credentials: { apiKey: 'alpha-key-0123' }, settings: {} },
      'video_task_1',
      { now: () => Date.UTC(2026, 10, 24, 12) },
    );
  const sentBody = () => receivedJson(upstream);
  const submitAt = async (path: string, call: VideoCall, upstreamModel = 'alphaq2-pro') => {
    upstream = await session.replay({
      [`POST /ent/v2${path}`]: { status: 200, body: fixture('submit-accepted.body') },
    });
    return alphaTaskAdapter.submit({ upstreamModel, request: call }, context());
  };

  describe('submit', () => {
    it('sends a text call to text2video with the Token scheme and keeps what usage needs', async () => {
      const { handle } = await submitAt(
        '/text2video',
        videoCall({ aspectRatio: '16:9', extras: { seed: 7, style: 'anime', off_peak: true } }),
      );
      const [sent] = upstream.requests;
      expect(sent.headers.authorization).toBe('Token alpha-key-0123');
      expect(sent.headers['content-type']).toBe('application/json');
      expect(sentBody()).toEqual({
        model: 'alphaq2-pro',
        prompt: 'a fox runs through snow',
        duration: 5,
        resolution: '720p',
        aspect_ratio: '16:9',
        seed: 7,
        style: 'anime',
        off_peak: true,
      });
      expect(handle).toEqual({
        taskId: json('submit-accepted.body').task_id,
        seconds: 5,
        resolution: '720p',
      });
    });

    it('sends a first frame to img2video', async () => {
      await submitAt(
        '/img2video',
        videoCall({ mode: 'first_frame', images: [{ role: 'first_frame', url: FIRST }] }),
      );
      expect(sentBody()).toMatchObject({ model: 'alphaq2-pro', images: [FIRST] });
      expect(sentBody()).not.toHaveProperty('aspect_ratio');
    });

    it('sends first and last frames to start-end2video, first frame first', async () => {
      await submitAt(
        '/start-end2video',
        videoCall({
          mode: 'first_last',
          images: [
            { role: 'last_frame', url: LAST },
            { role: 'first_frame', url: FIRST },
          ],
        }),
      );
      expect(sentBody().images).toEqual([FIRST, LAST]);
    });

    it('sends subjects to reference2video, addressing a q2 model by its generation', async () => {
      await submitAt(
        '/reference2video',
        videoCall({
          mode: 'reference',
          prompt: '@cat meets @dog',
          subjects: [
            { id: 'cat', images: [FIRST, LAST], voiceId: 'voice-7' },
            { id: 'dog', images: [FIRST], voiceId: null },
          ],
          extras: { audio: false, bgm: true, payload: 'order-7', meta_data: '{"a":1}' },
        }),
        'alphaq2-turbo',
      );
      expect(sentBody()).toEqual({
        model: 'alphaq2',
        prompt: '@cat meets @dog',
        subjects: [
          { id: 'cat', images: [FIRST, LAST], voice_id: 'voice-7' },
          { id: 'dog', images: [FIRST] },
        ],
        duration: 5,
        resolution: '720p',
        audio: false,
        bgm: true,
        payload: 'order-7',
        meta_data: '{"a":1}',
      });
    });

    it('sends reference images to reference2video under the model name of other generations', async () => {
      await submitAt(
        '/reference2video',
        videoCall({ mode: 'reference', prompt: '', images: [{ role: 'reference', url: FIRST }] }),
        'alphaq3-pro',
      );
      expect(sentBody()).toEqual({ model: 'alphaq3-pro', images: [FIRST], duration: 5, resolution: '720p' });
    });

    it('keeps the duration and resolution the upstream accepted', async () => {
      upstream = await session.replay({
        'POST /ent/v2/text2video': {
          status: 200,
          body: JSON.stringify({ ...json('submit-accepted.body'), duration: 8, resolution: '1080P' }),
        },
      });
      const { handle } = await alphaTaskAdapter.submit(
        { upstreamModel: 'alphaq2-pro', request: videoCall() },
        context(),
      );
      expect(handle).toEqual({ taskId: TASK_ID, seconds: 8, resolution: '1080p' });
    });

    it.each([
      ['error-unauthorized.body', 401, 'auth'],
      ['error-credit-insufficient.body', 400, 'insufficient_balance'],
      ['error-prompt-policy.body', 400, 'content_policy'],
      ['error-too-many-requests.body', 429, 'rate_limit'],
      ['error-internal.body', 500, 'overload'],
    ])('throws the failure of a refused submission (%s)', async (name, status, kind) => {
      upstream = await session.replay({ 'POST /ent/v2/text2video': { status, body: fixture(name) } });
      const error = await upstreamFailureOf(
        alphaTaskAdapter.submit({ upstreamModel: 'alphaq2-pro', request: videoCall() }, context()),
      );
      expect(error.failure).toMatchObject({ kind, httpStatus: status });
    });

    it('reads a submission answered with state failed as the refusal it is', async () => {
      upstream = await session.replay({
        'POST /ent/v2/text2video': { status: 200, body: fixture('submit-failed-state.body') },
      });
      const error = await upstreamFailureOf(
        alphaTaskAdapter.submit({ upstreamModel: 'alphaq2-pro', request: videoCall() }, context()),
      );
      expect(error.failure).toMatchObject({
        kind: 'insufficient_balance',
        httpStatus: 200,
        upstreamCode: 'CreditInsufficient',
      });
    });

    it('reads an answer without a task id as a malformed answer', async () => {
      upstream = await session.replay({
        'POST /ent/v2/text2video': { status: 200, body: '{"state":"created"}' },
      });
      const error = await upstreamFailureOf(
        alphaTaskAdapter.submit({ upstreamModel: 'alphaq2-pro', request: videoCall() }, context()),
      );
      expect(error.failure).toMatchObject({ kind: 'overload', retryable: true });
    });

    it('refuses a request that is not a video call before calling anyone', async () => {
      upstream = await session.replay({});
      await expect(
        alphaTaskAdapter.submit({ upstreamModel: 'alphaq2-pro', request: { prompt: 'x' } }, context()),
      ).rejects.toThrow(TypeError);
      expect(upstream.requests).toHaveLength(0);
    });
  });

  describe('poll', () => {
    const pollWith = async (status: number, name: string, handle: JsonHandle = HANDLE) => {
      upstream = await session.replay({ [CREATIONS]: { status, body: fixture(name) } });
      return alphaTaskAdapter.poll(handle, context());
    };

    it('asks for the creations of the task with the Token scheme', async () => {
      await pollWith(200, 'creations-processing.body');
      expect(upstream.requests[0]).toMatchObject({
        method: 'GET',
        url: `/ent/v2/tasks/${TASK_ID}/creations`,
      });
      expect(upstream.requests[0].headers.authorization).toBe('Token alpha-key-0123');
    });

    it.each([
      ['creations-created.body', 'queued'],
      ['creations-queueing.body', 'queued'],
      ['creations-processing.body', 'processing'],
    ])('reads %s as pending, %s', async (name, phase) => {
      expect(await pollWith(200, name)).toEqual({ state: 'pending', phase });
    });

    it('reads success as the creation URLs, with the seconds and resolution submitted', async () => {
      expect(await pollWith(200, 'creations-success.body')).toEqual({
        state: 'completed',
        outputs: [{ url: json('creations-success.body').creations[0].url, contentType: 'video/mp4' }],
        usage: { video: { seconds: 5, resolution: '720p' } },
        warnings: [],
      });
    });

    it('reads success without any creation as a failure', async () => {
      expect(await pollWith(200, 'creations-success-empty.body')).toMatchObject({
        state: 'failed',
        failure: { kind: 'overload', upstreamCode: 'success' },
      });
    });

    it.each([
      ['creations-failed.body', 'content_policy', 'CreationPolicyViolation'],
      ['creations-cancelled.body', 'bad_request', 'UserCancelled'],
    ])('reads %s as failed by its err_code', async (name, kind, upstreamCode) => {
      expect(await pollWith(200, name)).toMatchObject({ state: 'failed', failure: { kind, upstreamCode } });
    });

    it('reads a state outside the table as pending, and says so in the log', async () => {
      expect(await pollWith(200, 'creations-unknown-state.body')).toEqual({ state: 'pending' });
      expect(session.warnings).toEqual([expect.objectContaining({ fields: { state: 'paused' } })]);
    });

    it.each([
      ['error-task-not-found.body', 404, 'bad_request'],
      ['error-unauthorized.body', 401, 'auth'],
    ])('fails the task when the upstream answers for good (%s)', async (name, status, kind) => {
      expect(await pollWith(status, name)).toMatchObject({
        state: 'failed',
        failure: { kind, httpStatus: status },
      });
    });

    it.each([
      ['error-too-many-requests.body', 429, 'rate_limit'],
      ['error-internal.body', 500, 'overload'],
    ])(
      'throws what says nothing about the task (%s), so the caller asks again',
      async (name, status, kind) => {
        const error = await upstreamFailureOf(pollWith(status, name));
        expect(error.failure).toMatchObject({ kind, retryable: true });
      },
    );

    it('refuses a handle written by something else', async () => {
      upstream = await session.replay({});
      await expect(alphaTaskAdapter.poll({ taskId: 7 }, context())).rejects.toThrow(
        'not an alpha task handle',
      );
    });
  });
});
