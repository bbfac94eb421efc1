import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NoChannelSettings, TaskAdapterContext, TaskCall, VideoRequest } from '@gateway/providers-core';
import {
  acceptedVideoPlan,
  receivedJson,
  upstreamFailureOf,
  useRecordedUpstreams,
  videoRequestOf,
  type RecordedResponse,
  type RecordedUpstream,
} from '@gateway/providers-core/testing';
import type { GammaCredentials } from '../gamma-credentials.parse';
import { gammaTaskAdapter } from '../gamma-task.adapter';
import { planGammaVideo } from '../video/gamma-video.rules';
import { gammaBearerToken } from './gamma-token';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '..', '__fixtures__', name));
const json = (name: string) => JSON.parse(fixture(name).toString('utf8'));

const CREDENTIALS: GammaCredentials = { accessKey: 'GAKexample0123', secretKey: 'c2VjcmV0+/key=' };
const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const TASK_KEY = 'video_q2Xr0mRj3lBn5tPw8yZc1A';
const TASK_ID = '860312457731895360';
const FIRST = 'https://img.example/first.png';
const LAST = 'https://img.example/last.png';
const REFERENCE = 'https://img.example/reference.png';
const CLIP = 'https://img.example/motion.mp4';

function planned(fields: Partial<VideoRequest> = {}, upstreamModel?: string): TaskCall {
  const request = videoRequestOf({ model: 'gamma-2.6', prompt: 'a fox runs', seconds: 10, ...fields });
  return {
    upstreamModel: upstreamModel ?? request.model,
    request: acceptedVideoPlan(planGammaVideo(request)).call,
  };
}

describe('gammaTaskAdapter on the official-compatible wire (AccessKey|SecretKey, upstreams.md §5.8)', () => {
  const session = useRecordedUpstreams();
  let upstream: RecordedUpstream;
  const context = (): TaskAdapterContext<GammaCredentials, NoChannelSettings> =>
    session.taskContext({ baseUrl: upstream.baseUrl, credentials: CREDENTIALS, settings: {} }, TASK_KEY, {
      now: () => NOW,
    });
  const answering = async (routes: Record<string, RecordedResponse>) => {
    upstream = await session.replay(routes);
  };
  const created = (endpoint: string): Record<string, RecordedResponse> => ({
    [`POST /v1/videos/${endpoint}`]: { status: 200, body: fixture('official-created.body') },
  });
  const sentBody = () => receivedJson(upstream);

  describe('submit', () => {
    it('creates a text task on text2video with a fresh HS256 token and the task id as external_task_id', async () => {
      await answering(created('text2video'));
      const { handle } = await gammaTaskAdapter.submit(
        planned({ aspectRatio: '9:16', metadata: { output_config: { audio_generation: 'Enabled' } } }),
        context(),
      );
      const [sent] = upstream.requests;
      expect(sent.headers.authorization).toBe(`Bearer ${gammaBearerToken({ ...CREDENTIALS, nowMs: NOW })}`);
      expect(sent.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(sentBody()).toEqual({
        model_name: 'gamma-v2-6',
        prompt: 'a fox runs',
        mode: 'std',
        duration: '10',
        aspect_ratio: '9:16',
        sound: 'on',
        external_task_id: TASK_KEY,
      });
      expect(handle).toEqual({
        wire: 'official',
        endpoint: 'text2video',
        taskId: TASK_ID,
        seconds: 10,
        resolution: '720p',
      });
    });

    it('sends a first and last frame to image2video as image and image_tail, 1080P as mode pro', async () => {
      await answering(created('image2video'));
      await gammaTaskAdapter.submit(
        planned({
          aspectRatio: '16:9',
          resolution: '1080P',
          images: [
            { role: 'first_frame', url: FIRST, source: 'image' },
            { role: 'last_frame', url: LAST, source: 'metadata.last_frame_url' },
          ],
        }),
        context(),
      );
      expect(sentBody()).toEqual({
        model_name: 'gamma-v2-6',
        prompt: 'a fox runs',
        mode: 'pro',
        duration: '10',
        image: FIRST,
        image_tail: LAST,
        external_task_id: TASK_KEY,
      });
    });

    it('sends references and videos to omni-video as image_list and video_list; 3.0-Omni always', async () => {
      await answering(created('omni-video'));
      await gammaTaskAdapter.submit(
        planned({
          model: 'gamma-3.0-omni',
          seconds: 15,
          images: [{ role: 'reference', url: REFERENCE, source: 'images' }],
          clips: [{ type: 'video', url: CLIP, role: 'feature' }],
          metadata: { motion_level: 'pro' },
        }),
        context(),
      );
      expect(sentBody()).toEqual({
        model_name: 'gamma-v3-omni',
        prompt: 'a fox runs',
        mode: 'pro',
        duration: '15',
        image_list: [{ image_url: REFERENCE }],
        video_list: [{ video_url: CLIP, refer_type: 'feature' }],
        external_task_id: TASK_KEY,
      });
    });

    it('puts a first frame and its tail in image_list on omni-video', async () => {
      await answering(created('omni-video'));
      await gammaTaskAdapter.submit(
        planned({
          model: 'gamma-3.0-omni',
          images: [
            { role: 'first_frame', url: FIRST, source: 'image' },
            { role: 'last_frame', url: LAST, source: 'metadata.last_frame_url' },
          ],
        }),
        context(),
      );
      expect(sentBody().image_list).toEqual([
        { image_url: FIRST, type: 'first_frame' },
        { image_url: LAST, type: 'end_frame' },
      ]);
    });

    it('refuses a scene the wire has no field for before any call, as a failure the task ends on', async () => {
      await answering(created('omni-video'));
      const error = await upstreamFailureOf(
        gammaTaskAdapter.submit(
          planned({
            images: [{ role: 'first_frame', url: FIRST, source: 'image' }],
            metadata: { scene_type: 'avatar_i2v' },
          }),
          context(),
        ),
      );
      expect(error.failure).toMatchObject({ kind: 'bad_request', retryable: false, httpStatus: 400 });
      expect(error.failure.message).toContain('SceneType');
      expect(upstream.requests).toHaveLength(0);
    });

    it.each([
      ['official-error-expired.body', 401, 'auth', false, '1004'],
      ['official-error-exhausted.body', 429, 'insufficient_balance', false, '1102'],
      ['official-error-parameters.body', 400, 'bad_request', false, '1201'],
      ['official-error-content.body', 400, 'content_policy', false, '1301'],
      ['official-error-concurrency.body', 429, 'rate_limit', true, '1303'],
      ['official-error-unavailable.body', 503, 'overload', true, '5001'],
    ])('classifies %s (HTTP %i) by the §5.8 table', async (name, status, kind, retryable, code) => {
      await answering({ 'POST /v1/videos/text2video': { status, body: fixture(name) } });
      const error = await upstreamFailureOf(gammaTaskAdapter.submit(planned(), context()));
      expect(error.failure).toEqual({
        kind,
        retryable,
        httpStatus: status,
        upstreamCode: code,
        message: json(name).message,
      });
    });

    it('reads a non-zero code in an HTTP 200 answer as an error too', async () => {
      await answering({
        'POST /v1/videos/text2video': { status: 200, body: fixture('official-error-content.body') },
      });
      const error = await upstreamFailureOf(gammaTaskAdapter.submit(planned(), context()));
      expect(error.failure).toMatchObject({ kind: 'content_policy', httpStatus: 200, upstreamCode: '1301' });
    });
  });

  describe('poll', () => {
    const HANDLE = {
      wire: 'official',
      endpoint: 'image2video',
      taskId: TASK_ID,
      seconds: 5,
      resolution: '1080p',
    };
    const QUERY = `GET /v1/videos/image2video/${TASK_ID}`;
    const polled = async (name: string, status = 200) => {
      await answering({ [QUERY]: { status, body: fixture(name) } });
      return gammaTaskAdapter.poll(HANDLE, context());
    };

    it('queries the endpoint the task was created on, with a fresh token', async () => {
      expect(await polled('official-created.body')).toEqual({ state: 'pending', phase: 'queued' });
      expect(upstream.requests[0].headers.authorization).toBe(
        `Bearer ${gammaBearerToken({ ...CREDENTIALS, nowMs: NOW })}`,
      );
    });

    it('reads processing as pending and succeed as completed, billed by the duration reported', async () => {
      expect(await polled('official-processing.body')).toEqual({ state: 'pending', phase: 'processing' });
      expect(await polled('official-succeed.body')).toEqual({
        state: 'completed',
        outputs: [
          { url: json('official-succeed.body').data.task_result.videos[0].url, contentType: 'video/mp4' },
        ],
        usage: { video: { seconds: 10, resolution: '1080p' } },
        warnings: [],
      });
    });

    it('reads failed as a failure with task_status_msg', async () => {
      expect(await polled('official-failed.body')).toEqual({
        state: 'failed',
        failure: {
          kind: 'overload',
          retryable: true,
          message: json('official-failed.body').data.task_status_msg,
          upstreamCode: 'failed',
        },
      });
    });

    it('ends a task the upstream no longer knows (1203), and asks again after an overload', async () => {
      expect(await polled('official-error-not-found.body', 404)).toMatchObject({
        state: 'failed',
        failure: { kind: 'bad_request', upstreamCode: '1203' },
      });
      await expect(polled('official-error-unavailable.body', 503)).rejects.toMatchObject({
        failure: { kind: 'overload', retryable: true },
      });
    });

    it('logs an unknown status and stays pending', async () => {
      await answering({
        [QUERY]: {
          status: 200,
          body: JSON.stringify({
            code: 0,
            message: 'SUCCEED',
            data: { task_id: TASK_ID, task_status: 'paused' },
          }),
        },
      });
      expect(await gammaTaskAdapter.poll(HANDLE, context())).toEqual({ state: 'pending' });
      expect(session.warnings).toEqual([
        { message: expect.stringContaining('status'), fields: { status: 'paused' } },
      ]);
    });
  });
});
