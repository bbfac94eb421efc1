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
import { pngBytes } from '../testing/image-inputs';
import { compatVideoTaskAdapter } from './compat-video-task.adapter';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '..', '__fixtures__', name));
const JSON_TYPE = { 'content-type': 'application/json' };
const VIDEO_ID = 'video_68d7512d07848190b3e45da0ecbebcde';
const CREATE = 'POST /v1/videos';
const RETRIEVE = `GET /v1/videos/${VIDEO_ID}`;
const HANDLE: JsonHandle = { videoId: VIDEO_ID, seconds: 8, size: '1280x720', resolution: '720p' };
const PNG_DATA_URI = `data:image/png;base64,${pngBytes(4, 4).toString('base64')}`;

const videoCall = (fields: Partial<VideoCall> = {}): VideoCall =>
  videoCallOf({
    family: 'delta-2',
    prompt: 'a lighthouse at dusk',
    seconds: 8,
    resolution: '720p',
    size: '1280x720',
    ...fields,
  });

const recorded = (status: number, body: Buffer | string): RecordedResponse => ({
  status,
  headers: JSON_TYPE,
  body,
});

describe('compatVideoTaskAdapter', () => {
  const session = useRecordedUpstreams();
  let upstream: RecordedUpstream;
  const context = (): TaskAdapterContext<PlainKeyCredentials> =>
    session.taskContext(
      { baseUrl: upstream.baseUrl, credentials: { apiKey: 'compat-secret-1' }, settings: {} },
      'video_task_01HZX',
      { now: () => 1_764_000_000_000 },
    );
  /** Starts a fresh recorded upstream; a test may replay several, all closed after it. */
  const replay = async (routes: Record<string, RecordedResponse>) => {
    upstream = await session.replay(routes);
  };
  const submit = (call: VideoCall, upstreamModel = call.family) =>
    compatVideoTaskAdapter.submit({ upstreamModel, request: call } satisfies TaskCall, context());
  const sentJson = () => receivedJson(upstream);
  const sentForm = (): Promise<FormData> => {
    const [sent] = upstream.requests;
    return new Response(sent.body, {
      headers: { 'content-type': String(sent.headers['content-type']) },
    }).formData();
  };
  const pollWith = async (body: Buffer | string, status = 200) => {
    await replay({ [RETRIEVE]: recorded(status, body) });
    return compatVideoTaskAdapter.poll(HANDLE, context());
  };

  it('declares idempotent submission and a cancel', () => {
    expect(compatVideoTaskAdapter.idempotentSubmit).toBe(true);
    expect(compatVideoTaskAdapter.cancel).toBeDefined();
  });

  describe('submit', () => {
    it('creates as JSON with seconds as a string, the Idempotency-Key and the Bearer key, and keeps the handle', async () => {
      await replay({ [CREATE]: recorded(200, fixture('video-created.body')) });
      const { handle } = await submit(
        videoCall({
          mode: 'first_frame',
          images: [{ role: 'first_frame', url: 'https://images.example.test/a.png' }],
        }),
      );
      const [sent] = upstream.requests;
      expect(sent.headers).toMatchObject({
        authorization: 'Bearer compat-secret-1',
        'idempotency-key': 'video_task_01HZX',
        'content-type': 'application/json',
      });
      expect(sentJson()).toEqual({
        model: 'delta-2',
        prompt: 'a lighthouse at dusk',
        seconds: '8',
        size: '1280x720',
        input_reference: { image_url: 'https://images.example.test/a.png' },
      });
      expect(handle).toEqual(HANDLE);
    });

    it('uploads a delta image held as bytes as a multipart input_reference file', async () => {
      await replay({ [CREATE]: recorded(200, fixture('video-created.body')) });
      await submit(
        videoCall({
          mode: 'first_frame',
          images: [{ role: 'first_frame', url: PNG_DATA_URI }],
          extras: { watermark: false },
        }),
      );
      const form = await sentForm();
      expect(form.get('seconds')).toBe('8');
      expect(form.get('watermark')).toBe('false');
      const file = form.get('input_reference') as File;
      expect(file.type).toBe('image/png');
      expect(Buffer.from(await file.arrayBuffer()).equals(pngBytes(4, 4))).toBe(true);
    });

    it('always uploads for zeta: repeated input_reference files, aspect_ratio and metadata as text', async () => {
      await replay({ [CREATE]: recorded(200, fixture('video-created.body')) });
      await submit(
        videoCall({
          family: 'zeta-video-3-pro',
          mode: 'first_last',
          seconds: 10,
          size: '720P',
          aspectRatio: '3:2',
          metadata: { user: 'u1' },
          images: [
            { role: 'first_frame', url: PNG_DATA_URI },
            { role: 'last_frame', url: PNG_DATA_URI },
          ],
        }),
      );
      const form = await sentForm();
      expect(form.get('model')).toBe('zeta-video-3-pro');
      expect(form.get('seconds')).toBe('10');
      expect(form.get('aspect_ratio')).toBe('3:2');
      expect(form.get('metadata')).toBe('{"user":"u1"}');
      expect(form.getAll('input_reference')).toHaveLength(2);
      expect(upstream.requests[0].headers['idempotency-key']).toBe('video_task_01HZX');
    });

    it('sends epsilon and open families their images in images[], URLs and data: URIs alike', async () => {
      await replay({ [CREATE]: recorded(200, fixture('video-created.body')) });
      await submit(
        videoCall({
          family: 'nu',
          size: null,
          resolution: null,
          seconds: 5,
          mode: 'reference',
          images: [
            { role: 'reference', url: 'https://images.example.test/a.png' },
            { role: 'reference', url: PNG_DATA_URI },
          ],
        }),
        'nu-2-turbo',
      );
      expect(sentJson()).toEqual({
        model: 'nu-2-turbo',
        prompt: 'a lighthouse at dusk',
        seconds: '5',
        images: ['https://images.example.test/a.png', PNG_DATA_URI],
      });
    });

    it('remixes through POST /v1/videos/{id}/remix with the prompt and model', async () => {
      await replay({ [`POST /v1/videos/${VIDEO_ID}/remix`]: recorded(200, fixture('video-remixed.body')) });
      const { handle } = await submit(videoCall({ mode: 'remix', prompt: 'now at night', remixOf: HANDLE }));
      expect(sentJson()).toEqual({ prompt: 'now at night', model: 'delta-2' });
      expect(upstream.requests[0].headers['idempotency-key']).toBe('video_task_01HZX');
      expect(handle).toEqual({ ...(HANDLE as object), videoId: 'video_7a01c3d9e5f64b1e8c2d3e4f5a6b7c8d' });
    });

    it.each([
      ['error-moderation-blocked.body', 400, 'content_policy'],
      ['error-content-policy-violation.body', 400, 'content_policy'],
      ['error-invalid-request.body', 400, 'bad_request'],
      ['error-rate-limit.body', 429, 'rate_limit'],
      ['error-insufficient-quota.body', 429, 'insufficient_balance'],
      ['error-overloaded.body', 503, 'overload'],
      ['error-invalid-api-key.body', 401, 'auth'],
    ])('throws the classified failure of a refused create (%s)', async (name, status, kind) => {
      await replay({ [CREATE]: recorded(status, fixture(name)) });
      const error = await upstreamFailureOf(submit(videoCall()));
      expect(error.failure).toMatchObject({ kind, httpStatus: status });
    });

    it('refuses a call that is not a video call', async () => {
      await replay({});
      await expect(
        compatVideoTaskAdapter.submit({ upstreamModel: 'img-1', request: { prompt: 'x' } }, context()),
      ).rejects.toThrow(TypeError);
    });
  });

  describe('poll', () => {
    it('asks GET /v1/videos/{id} with the key and reads queued and in_progress as phases with progress', async () => {
      expect(await pollWith(fixture('video-created.body'))).toEqual({
        state: 'pending',
        phase: 'queued',
        progress: 0,
      });
      expect(upstream.requests[0].headers.authorization).toBe('Bearer compat-secret-1');
      expect(await pollWith(fixture('video-in-progress.body'))).toEqual({
        state: 'pending',
        phase: 'processing',
        progress: 42,
      });
    });

    it.each([
      ['pending', 'queued'],
      ['submitted', 'queued'],
      ['not_start', 'queued'],
      ['preparing', 'queued'],
      ['processing', 'processing'],
      ['running', 'processing'],
      ['generating', 'processing'],
    ])('reads the synonym %s as %s', async (word, phase) => {
      const body = JSON.stringify({ id: VIDEO_ID, status: word, progress: 10 });
      expect(await pollWith(body)).toEqual({ state: 'pending', phase, progress: 10 });
    });

    it.each(['completed', 'succeeded', 'success', 'finished'])('reads %s as completed', async (word) => {
      const result = await pollWith(JSON.stringify({ id: VIDEO_ID, status: word, seconds: '8' }));
      expect(result.state).toBe('completed');
    });

    it('completes a first-party video without a URL (its bytes come from /content), with its seconds', async () => {
      expect(await pollWith(fixture('video-completed.body'))).toEqual({
        state: 'completed',
        outputs: [],
        usage: { video: { seconds: 8, resolution: '720p' } },
        warnings: [],
      });
    });

    it('reads a relay URL in the placement order (output.url before metadata.url)', async () => {
      const result = await pollWith(fixture('video-completed-relay.body'));
      expect(result).toMatchObject({
        state: 'completed',
        outputs: [
          { url: 'https://cdn.relay.example.test/v/9f1c2a7b.mp4?sig=ab12', contentType: 'video/mp4' },
        ],
        usage: { video: { seconds: 6 } },
      });
    });

    it.each([
      [{ video_url: 'https://r.example.test/1' }, 'https://r.example.test/1'],
      [
        { url: 'https://r.example.test/2', metadata: { url: 'https://r.example.test/x' } },
        'https://r.example.test/2',
      ],
      [{ metadata: { url: 'https://r.example.test/3' } }, 'https://r.example.test/3'],
      [{ metadata: { video_url: 'https://r.example.test/4' } }, 'https://r.example.test/4'],
      [{ metadata: { result_url: 'https://r.example.test/5' } }, 'https://r.example.test/5'],
      [{ detail: { url: 'https://r.example.test/6' } }, 'https://r.example.test/6'],
    ])('finds the result URL in %j', async (placement, url) => {
      const result = await pollWith(JSON.stringify({ id: VIDEO_ID, status: 'completed', ...placement }));
      expect(result).toMatchObject({
        state: 'completed',
        outputs: [{ url }],
        usage: { video: { seconds: 8 } },
      });
    });

    it('fails a moderated video as content_policy and another failure by its code', async () => {
      expect(await pollWith(fixture('video-failed-moderation.body'))).toEqual({
        state: 'failed',
        failure: expect.objectContaining({
          kind: 'content_policy',
          retryable: false,
          upstreamCode: 'moderation_blocked',
          message: 'The generated video was blocked by our moderation system.',
        }),
      });
      expect(await pollWith(fixture('video-failed-error.body'))).toEqual({
        state: 'failed',
        failure: expect.objectContaining({ kind: 'overload', upstreamCode: 'internal_error' }),
      });
    });

    it('ends cancelled a video the upstream cancelled', async () => {
      const result = await pollWith(JSON.stringify({ id: VIDEO_ID, status: 'canceled' }));
      expect(result).toMatchObject({
        state: 'failed',
        cancelled: true,
        failure: { kind: 'bad_request', upstreamCode: 'canceled' },
      });
    });

    it('reads an unknown word as pending and logs it', async () => {
      expect(await pollWith(JSON.stringify({ id: VIDEO_ID, status: 'rendering', progress: 70 }))).toEqual({
        state: 'pending',
        progress: 70,
      });
      expect(session.warnings).toEqual([
        expect.objectContaining({ fields: { videoId: VIDEO_ID, status: 'rendering' } }),
      ]);
    });

    it('fails the task when the upstream no longer has the video', async () => {
      expect(await pollWith(fixture('video-not-found.body'), 404)).toMatchObject({
        state: 'failed',
        failure: { kind: 'bad_request', httpStatus: 404 },
      });
    });

    it.each([
      ['error-rate-limit.body', 429, 'rate_limit'],
      ['error-server-error.body', 500, 'overload'],
      ['error-invalid-api-key.body', 401, 'auth'],
    ])('throws %s for the caller to ask again', async (name, status, kind) => {
      await replay({ [RETRIEVE]: recorded(status, fixture(name)) });
      const error = await upstreamFailureOf(compatVideoTaskAdapter.poll(HANDLE, context()));
      expect(error.failure.kind).toBe(kind);
    });

    it('throws on a handle another adapter wrote', async () => {
      await replay({});
      await expect(compatVideoTaskAdapter.poll({ taskId: '1' }, context())).rejects.toThrow(TypeError);
    });
  });

  describe('cancel', () => {
    it('deletes the video, and takes a 404 as already gone', async () => {
      await replay({ [`DELETE /v1/videos/${VIDEO_ID}`]: recorded(200, fixture('video-deleted.body')) });
      await compatVideoTaskAdapter.cancel!(HANDLE, context());
      expect(upstream.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
        `DELETE /v1/videos/${VIDEO_ID}`,
      ]);
      await replay({ [`DELETE /v1/videos/${VIDEO_ID}`]: recorded(404, fixture('video-not-found.body')) });
      await expect(compatVideoTaskAdapter.cancel!(HANDLE, context())).resolves.toBeUndefined();
    });

    it('throws the classified failure of a refused delete', async () => {
      await replay({ [`DELETE /v1/videos/${VIDEO_ID}`]: recorded(503, fixture('error-overloaded.body')) });
      const error = await upstreamFailureOf(compatVideoTaskAdapter.cancel!(HANDLE, context()));
      expect(error.failure.kind).toBe('overload');
    });
  });
});
