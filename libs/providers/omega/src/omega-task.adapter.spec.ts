import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  JsonHandle,
  PlainKeyCredentials,
  TaskAdapterContext,
  TaskCall,
  VideoCall,
} from '@gateway/providers-core';
import {
  receivedJson,
  upstreamFailureOf,
  useRecordedUpstreams,
  videoCallOf,
  type RecordedResponse,
  type RecordedUpstream,
} from '@gateway/providers-core/testing';
import { omegaTaskAdapter } from './omega-task.adapter';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '__fixtures__', name));
const recorded = (name: string, status = 200): RecordedResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: fixture(name),
});

const SUBMIT = 'POST /api/v1/services/aigc/video-generation/video-synthesis';
const TASK_ID = '0385dc79-5ff8-4d82-bcb6-2f8b4c1e7a10';
const QUERY = `GET /api/v1/tasks/${TASK_ID}`;
const FRAME = 'https://example.test/frame.png';

const TEXT_VIDEO: VideoCall = videoCallOf({
  family: 'omega',
  prompt: 'a fox runs',
  seconds: 10,
  resolution: '720p',
  size: '1280*720',
  extras: {
    negative_prompt: 'blurry',
    prompt_extend: true,
    shot_type: 'single',
    audio: true,
    watermark: false,
    seed: 42,
  },
});
const IMAGE_VIDEO: VideoCall = {
  ...TEXT_VIDEO,
  mode: 'first_frame',
  prompt: '',
  seconds: 5,
  resolution: '1080p',
  size: '1080P',
  images: [{ role: 'first_frame', url: FRAME }],
  extras: {},
};
const HANDLE: JsonHandle = { taskId: TASK_ID, seconds: 10, tier: '720p' };

describe('omegaTaskAdapter', () => {
  const session = useRecordedUpstreams();
  let upstream: RecordedUpstream;
  const context = (): TaskAdapterContext<PlainKeyCredentials> =>
    session.taskContext(
      { baseUrl: upstream.baseUrl, credentials: { apiKey: 'omega-key-1' }, settings: {} },
      'video_task_1',
    );
  const sentJson = (index = 0) => receivedJson(upstream, index);
  const submitCall = (upstreamModel: string, request: VideoCall): TaskCall => ({ upstreamModel, request });

  describe('submit', () => {
    it('sends t2v with the model before the colon, the asterisk size and the asynchronous header', async () => {
      upstream = await session.replay({ [SUBMIT]: recorded('submit-accepted.body') });
      const { handle } = await omegaTaskAdapter.submit(
        submitCall('omega2.6-t2v:1280*720', TEXT_VIDEO),
        context(),
      );
      expect(sentJson()).toEqual({
        model: 'omega2.6-t2v',
        input: { prompt: 'a fox runs', negative_prompt: 'blurry' },
        parameters: {
          size: '1280*720',
          duration: 10,
          prompt_extend: true,
          shot_type: 'single',
          audio: true,
          watermark: false,
          seed: 42,
        },
      });
      expect(upstream.requests[0].headers).toMatchObject({
        authorization: 'Bearer omega-key-1',
        'content-type': 'application/json',
        'x-omega-async': 'enable',
      });
      expect(handle).toEqual(HANDLE);
    });

    it('sends i2v with the first frame in img_url and the tier in resolution, no size, no empty prompt', async () => {
      upstream = await session.replay({ [SUBMIT]: recorded('submit-accepted.body') });
      const { handle } = await omegaTaskAdapter.submit(
        submitCall('omega2.6-i2v:1920*1080', IMAGE_VIDEO),
        context(),
      );
      expect(sentJson()).toEqual({
        model: 'omega2.6-i2v',
        input: { img_url: FRAME },
        parameters: { resolution: '1080P', duration: 5 },
      });
      expect(handle).toEqual({ taskId: TASK_ID, seconds: 5, tier: '1080p' });
    });

    it('sends a channel-mapped model without a colon as it is', async () => {
      upstream = await session.replay({ [SUBMIT]: recorded('submit-accepted.body') });
      await omegaTaskAdapter.submit(submitCall('omega2.6-i2v-flash', IMAGE_VIDEO), context());
      expect(sentJson().model).toBe('omega2.6-i2v-flash');
    });

    it.each([
      ['error-invalid-parameter.body', 400, 'bad_request', false, 'InvalidParameter'],
      ['error-data-inspection.body', 400, 'content_policy', false, 'DataInspectionFailed'],
      ['error-arrearage.body', 400, 'insufficient_balance', false, 'Arrearage'],
      ['error-invalid-api-key.body', 401, 'auth', false, 'InvalidApiKey'],
      ['error-access-denied.body', 403, 'auth', false, 'AccessDenied'],
      ['error-throttling.body', 429, 'rate_limit', true, 'Throttling.RateQuota'],
      ['error-internal.body', 500, 'overload', true, 'InternalError'],
    ])('turns %s (HTTP %s) into %s', async (body, status, kind, retryable, upstreamCode) => {
      upstream = await session.replay({ [SUBMIT]: recorded(body, status) });
      const error = await upstreamFailureOf(
        omegaTaskAdapter.submit(submitCall('omega2.6-t2v:1280*720', TEXT_VIDEO), context()),
      );
      expect(error.failure).toMatchObject({ kind, retryable, upstreamCode, httpStatus: status });
    });

    it('refuses a stored request that is not a planned video call', async () => {
      upstream = await session.replay({});
      await expect(
        omegaTaskAdapter.submit({ upstreamModel: 'omega2.6-t2v:1280*720', request: {} }, context()),
      ).rejects.toThrow(TypeError);
      expect(upstream.requests).toHaveLength(0);
    });
  });

  describe('poll', () => {
    it.each([
      ['task-pending.body', 'queued'],
      ['task-running.body', 'processing'],
    ])('reads %s as pending, phase %s, with the key and no asynchronous header', async (body, phase) => {
      upstream = await session.replay({ [QUERY]: recorded(body) });
      expect(await omegaTaskAdapter.poll(HANDLE, context())).toEqual({ state: 'pending', phase });
      expect(upstream.requests[0].headers.authorization).toBe('Bearer omega-key-1');
      expect(upstream.requests[0].headers['x-omega-async']).toBeUndefined();
    });

    it('completes with the video URL, priced by the usage reported', async () => {
      upstream = await session.replay({ [QUERY]: recorded('task-succeeded.body') });
      expect(await omegaTaskAdapter.poll(HANDLE, context())).toEqual({
        state: 'completed',
        outputs: [
          { url: 'http://127.0.0.1:4010/files/video_Vb7n2QmX0kLp9RtZ3wYc5HdJ.mp4', contentType: 'video/mp4' },
        ],
        usage: { video: { seconds: 10, resolution: '1080p' } },
        warnings: [],
      });
    });

    it('falls back on what was asked when the answer reports no usage', async () => {
      upstream = await session.replay({ [QUERY]: recorded('task-succeeded-without-usage.body') });
      expect(await omegaTaskAdapter.poll(HANDLE, context())).toMatchObject({
        state: 'completed',
        usage: { video: { seconds: 10, resolution: '720p' } },
      });
    });

    it.each([
      ['task-failed-data-inspection.body', 'content_policy', false, 'DataInspectionFailed'],
      ['task-failed-internal.body', 'overload', true, 'InternalError'],
      ['task-canceled.body', 'bad_request', false, 'CANCELED'],
      ['task-unknown.body', 'bad_request', false, 'UNKNOWN'],
      ['task-succeeded-without-url.body', 'overload', true, 'SUCCEEDED'],
    ])('fails %s as %s', async (body, kind, retryable, upstreamCode) => {
      upstream = await session.replay({ [QUERY]: recorded(body) });
      expect(await omegaTaskAdapter.poll(HANDLE, context())).toEqual({
        state: 'failed',
        failure: expect.objectContaining({ kind, retryable, upstreamCode }),
      });
    });

    it('reads an unlisted status word as pending and says so in the log', async () => {
      upstream = await session.replay({ [QUERY]: recorded('task-unlisted-status.body') });
      expect(await omegaTaskAdapter.poll(HANDLE, context())).toEqual({ state: 'pending' });
      expect(session.warnings).toEqual([expect.objectContaining({ fields: { status: 'SUSPENDED' } })]);
    });

    it('throws an error answer, for the step processor to retry or fail by class', async () => {
      upstream = await session.replay({ [QUERY]: recorded('error-throttling.body', 429) });
      expect((await upstreamFailureOf(omegaTaskAdapter.poll(HANDLE, context()))).failure).toMatchObject({
        kind: 'rate_limit',
        retryable: true,
      });
    });

    it('escapes the task id into the path', async () => {
      upstream = await session.replay({
        'GET /api/v1/tasks/a%2Fb%3Fc': recorded('task-pending.body'),
      });
      expect(
        await omegaTaskAdapter.poll({ taskId: 'a/b?c', seconds: 5, tier: '720p' }, context()),
      ).toMatchObject({
        state: 'pending',
      });
    });
  });
});
