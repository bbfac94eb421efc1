import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonHandle, TaskCall, VideoCall } from '@gateway/providers-core';
import {
  upstreamFailureOf,
  useRecordedUpstreams,
  videoCallOf,
  type RecordedUpstream,
} from '@gateway/providers-core/testing';
import { thetaTaskAdapter } from './theta-task.adapter';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '..', '__fixtures__', name));
const json = (name: string) => JSON.parse(fixture(name).toString('utf8'));
const TASK_ID = 'cgt-20261124140301-k3x9q';
const CREATE = 'POST /api/v3/contents/generations/tasks';
const QUERY = `GET /api/v3/contents/generations/tasks/${TASK_ID}`;
const CANCEL = `DELETE /api/v3/contents/generations/tasks/${TASK_ID}`;
const JSON_TYPE = { 'content-type': 'application/json' };
const HANDLE: JsonHandle = { taskId: TASK_ID, seconds: 8, resolution: '720p' };

const videoCall = (fields: Partial<VideoCall> = {}, upstreamModel = 'eta-theta-1-0-pro_720p'): TaskCall => ({
  upstreamModel,
  request: videoCallOf({
    family: 'theta',
    mode: 'first_last',
    prompt: 'a paper boat on a pond',
    seconds: 8,
    resolution: '720p',
    size: null,
    aspectRatio: 'keep_ratio',
    images: [
      { role: 'first_frame', url: 'data:image/png;base64,iVBORw0KGgo=' },
      { role: 'last_frame', url: 'https://images.test/last.png' },
    ],
    extras: { seed: 11, camera_fixed: true },
    ...fields,
  }),
});

describe('thetaTaskAdapter', () => {
  const session = useRecordedUpstreams();
  let upstream: RecordedUpstream;
  const contextOn = (apiKey: string, submissionKey: string) =>
    session.taskContext({ baseUrl: upstream.baseUrl, credentials: { apiKey }, settings: {} }, submissionKey);
  const replay = async (route: string, name: string, status = 200) => {
    upstream = await session.replay({ [route]: { status, headers: JSON_TYPE, body: fixture(name) } });
    return contextOn('eta-secret-1', 'vid_1');
  };
  const sentBody = (): Record<string, unknown> => JSON.parse(upstream.requests[0].body.toString('utf8'));

  describe('submit', () => {
    it('creates the task with the versioned model, the suffix resolution and content in wire order', async () => {
      const { handle } = await thetaTaskAdapter.submit(
        videoCall(),
        await replay(CREATE, 'theta-created.body'),
      );
      expect(upstream.requests[0].headers.authorization).toBe('Bearer eta-secret-1');
      expect(sentBody()).toEqual({
        model: 'eta-theta-1-0-pro-250528',
        content: [
          { type: 'text', text: 'a paper boat on a pond' },
          {
            type: 'image_url',
            image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' },
            role: 'first_frame',
          },
          { type: 'image_url', image_url: { url: 'https://images.test/last.png' }, role: 'last_frame' },
        ],
        resolution: '720p',
        ratio: 'keep_ratio',
        duration: 8,
        seed: 11,
        camera_fixed: true,
      });
      expect(handle).toEqual(HANDLE);
    });

    it('sends a versioned id the channel maps to as it is, at the planned resolution; text only without a ratio', async () => {
      const call = videoCall(
        { mode: 'text', images: [], aspectRatio: null, extras: {}, resolution: '1080p' },
        'eta-theta-1-0-pro-fast-251015',
      );
      await thetaTaskAdapter.submit(call, await replay(CREATE, 'theta-created.body'));
      expect(sentBody()).toEqual({
        model: 'eta-theta-1-0-pro-fast-251015',
        content: [{ type: 'text', text: 'a paper boat on a pond' }],
        resolution: '1080p',
        duration: 8,
      });
    });

    it('orders a 2.0 call content text, images, videos, audios, with reference roles', async () => {
      const call = videoCall(
        {
          mode: 'reference',
          aspectRatio: null,
          extras: {},
          images: [{ role: 'reference', url: 'asset://asset-1' }],
          clips: [
            { type: 'audio', url: 'https://a.test/a.mp3', role: null },
            { type: 'video', url: 'https://a.test/v.mp4', role: null },
          ],
        },
        'eta-theta-2-0-260128',
      );
      await thetaTaskAdapter.submit(call, await replay(CREATE, 'theta-created.body'));
      expect(sentBody()['content']).toEqual([
        { type: 'text', text: 'a paper boat on a pond' },
        { type: 'image_url', image_url: { url: 'asset://asset-1' }, role: 'reference_image' },
        { type: 'video_url', video_url: { url: 'https://a.test/v.mp4' }, role: 'reference_video' },
        { type: 'audio_url', audio_url: { url: 'https://a.test/a.mp3' }, role: 'reference_audio' },
      ]);
    });

    it.each([
      ['error-invalid-parameter.body', 400, 'bad_request'],
      ['error-input-sensitive.body', 400, 'content_policy'],
      ['error-authentication.body', 401, 'auth'],
      ['error-account-overdue.body', 403, 'insufficient_balance'],
      ['error-rate-limit.body', 429, 'rate_limit'],
      ['error-internal.body', 500, 'overload'],
    ])('throws the §6.1 class of a refused creation (%s)', async (name, status, kind) => {
      const error = await upstreamFailureOf(
        thetaTaskAdapter.submit(videoCall(), await replay(CREATE, name, status)),
      );
      expect(error.failure).toMatchObject({ kind, httpStatus: status });
    });

    it('refuses a request that is no video call, before any upstream call', async () => {
      const context = await replay(CREATE, 'theta-created.body');
      await expect(
        thetaTaskAdapter.submit({ upstreamModel: 'x', request: { submission: {} } }, context),
      ).rejects.toThrow('a theta task request must be a video call');
      expect(upstream.requests).toHaveLength(0);
    });
  });

  describe('poll', () => {
    it.each([
      ['theta-queued.body', { state: 'pending', phase: 'queued' }],
      ['theta-running.body', { state: 'pending', phase: 'processing' }],
    ])('reads %s as pending', async (name, expected) => {
      expect(await thetaTaskAdapter.poll(HANDLE, await replay(QUERY, name))).toEqual(expected);
      expect(upstream.requests[0].headers.authorization).toBe('Bearer eta-secret-1');
    });

    it('reads succeeded as the video, with the duration, resolution and tokens the query reports', async () => {
      const result = await thetaTaskAdapter.poll(
        { taskId: TASK_ID, seconds: 5, resolution: '1080p' },
        await replay(QUERY, 'theta-succeeded.body'),
      );
      expect(result).toEqual({
        state: 'completed',
        outputs: [{ url: json('theta-succeeded.body').content.video_url, contentType: 'video/mp4' }],
        usage: {
          video: { seconds: 8, resolution: '720p' },
          tokens: { inputTokens: 0, outputTokens: 172_800 },
        },
        warnings: [],
      });
    });

    it.each([
      [
        'theta-failed-sensitive.body',
        { kind: 'content_policy', retryable: false, upstreamCode: 'OutputVideoSensitiveContentDetected' },
      ],
      [
        'theta-failed-internal.body',
        { kind: 'overload', retryable: true, upstreamCode: 'InternalServiceError' },
      ],
      ['theta-expired.body', { kind: 'timeout', retryable: false, upstreamCode: 'expired' }],
    ])('reads %s as a failed task', async (name, failure) => {
      expect(await thetaTaskAdapter.poll(HANDLE, await replay(QUERY, name))).toEqual({
        state: 'failed',
        failure: expect.objectContaining(failure),
      });
    });

    it('reads a cancelled task as failed and cancelled, so that its row ends cancelled', async () => {
      expect(await thetaTaskAdapter.poll(HANDLE, await replay(QUERY, 'theta-cancelled.body'))).toEqual({
        state: 'failed',
        cancelled: true,
        failure: expect.objectContaining({
          kind: 'bad_request',
          retryable: false,
          upstreamCode: 'cancelled',
        }),
      });
    });

    it('reads a status outside the table as pending, and says so in the log', async () => {
      upstream = await session.replay({
        [QUERY]: { status: 200, headers: JSON_TYPE, body: JSON.stringify({ id: TASK_ID, status: 'paused' }) },
      });
      const result = await thetaTaskAdapter.poll(HANDLE, contextOn('k', 'vid_1'));
      expect(result).toEqual({ state: 'pending' });
      expect(session.warnings.map(({ fields }) => fields)).toEqual([{ status: 'paused' }]);
    });

    it('throws error answers for the caller to decide: a rate limit to ask again, a 404 to end the task', async () => {
      const limited = await upstreamFailureOf(
        thetaTaskAdapter.poll(HANDLE, await replay(QUERY, 'error-rate-limit.body', 429)),
      );
      expect(limited.failure).toMatchObject({ kind: 'rate_limit', retryable: true });
      const missing = await upstreamFailureOf(
        thetaTaskAdapter.poll(HANDLE, await replay(QUERY, 'theta-not-found.body', 404)),
      );
      expect(missing.failure).toMatchObject({ kind: 'bad_request', retryable: false, httpStatus: 404 });
    });

    it('refuses a handle that is not its own', async () => {
      const context = await replay(QUERY, 'theta-queued.body');
      await expect(thetaTaskAdapter.poll({ taskId: 1 }, context)).rejects.toThrow('not a theta task handle');
      expect(upstream.requests).toHaveLength(0);
    });
  });

  describe('cancel', () => {
    it('deletes the task and throws the refusal for a running one', async () => {
      upstream = await session.replay({ [CANCEL]: { status: 200, headers: JSON_TYPE, body: '{}' } });
      const context = contextOn('eta-secret-1', 'v');
      await thetaTaskAdapter.cancel?.(HANDLE, context);
      expect(upstream.requests.map((request) => request.method)).toEqual(['DELETE']);
      const refused = await upstreamFailureOf(
        thetaTaskAdapter.cancel?.(HANDLE, await replay(CANCEL, 'theta-cancel-running.body', 400)) ??
          Promise.resolve(),
      );
      expect(refused.failure).toMatchObject({
        kind: 'bad_request',
        httpStatus: 400,
        upstreamCode: 'InvalidParameter',
      });
    });
  });
});
