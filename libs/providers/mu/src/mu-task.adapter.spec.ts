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
import { muTaskAdapter } from './mu-task.adapter';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '__fixtures__', name));
const recorded = (name: string): RecordedResponse => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: fixture(name),
});

const SUBMIT = 'POST /v1/video_generation';
const QUERY = 'GET /v1/query/video_generation?task_id=106916112212032';
const RETRIEVE = 'GET /v1/files/retrieve?file_id=205258526306433';
const FRAME = 'https://example.test/frame.png';

const VIDEO: VideoCall = videoCallOf({
  family: 'mu',
  mode: 'first_frame',
  prompt: 'a fox in the snow',
  seconds: 10,
  resolution: '768p',
  size: '768P',
  images: [{ role: 'first_frame', url: FRAME }],
  extras: { prompt_optimizer: false, aigc_watermark: true },
});
const CALL: TaskCall = { upstreamModel: 'mu-2.3', request: VIDEO };
const HANDLE: JsonHandle = { taskId: '106916112212032', seconds: 10, tier: '768p' };

describe('muTaskAdapter', () => {
  const session = useRecordedUpstreams();
  let upstream: RecordedUpstream;
  const context = (): TaskAdapterContext<PlainKeyCredentials> =>
    session.taskContext(
      { baseUrl: upstream.baseUrl, credentials: { apiKey: 'mu-key-1' }, settings: {} },
      'video_task_1',
    );
  const sentJson = (index = 0) => receivedJson(upstream, index);

  describe('submit', () => {
    it('sends the §7.3 body with the upstream model id and a Bearer key, and keeps what polls need', async () => {
      upstream = await session.replay({ [SUBMIT]: recorded('submit-accepted.body') });
      const { handle } = await muTaskAdapter.submit(CALL, context());
      expect(sentJson()).toEqual({
        model: 'Mu-Video-2.3',
        prompt: 'a fox in the snow',
        duration: 10,
        resolution: '768P',
        first_frame_image: FRAME,
        prompt_optimizer: false,
        aigc_watermark: true,
      });
      expect(upstream.requests[0].headers).toMatchObject({
        authorization: 'Bearer mu-key-1',
        'content-type': 'application/json',
      });
      expect(handle).toEqual(HANDLE);
    });

    it('sends mu-2.3-fast as Mu-Video-2.3-Fast, a model the table lacks as it is, and no empty prompt', async () => {
      upstream = await session.replay({ [SUBMIT]: recorded('submit-accepted.body') });
      await muTaskAdapter.submit(
        { ...CALL, upstreamModel: 'mu-2.3-fast', request: { ...VIDEO, prompt: '' } },
        context(),
      );
      await muTaskAdapter.submit({ ...CALL, upstreamModel: 'Mu-Video-02' }, context());
      expect(sentJson(0)).toMatchObject({ model: 'Mu-Video-2.3-Fast' });
      expect(sentJson(0)).not.toHaveProperty('prompt');
      expect(sentJson(1)).toMatchObject({ model: 'Mu-Video-02' });
    });

    it.each([
      ['submit-invalid-params.body', 'bad_request', false, '2013'],
      ['submit-input-sensitive.body', 'content_policy', false, '1026'],
      ['error-rate-limit.body', 'rate_limit', true, '1002'],
      ['error-invalid-api-key.body', 'auth', false, '2049'],
      ['error-insufficient-balance.body', 'insufficient_balance', false, '1008'],
      ['error-unknown.body', 'overload', true, '1000'],
    ])('turns the HTTP 200 answer %s into %s', async (body, kind, retryable, upstreamCode) => {
      upstream = await session.replay({ [SUBMIT]: recorded(body) });
      const error = await upstreamFailureOf(muTaskAdapter.submit(CALL, context()));
      // httpStatus set: the upstream answered, so the step processor fails the task at once.
      expect(error.failure).toMatchObject({ kind, retryable, upstreamCode, httpStatus: 200 });
    });

    it('reads a transport-level 503 by its status', async () => {
      upstream = await session.replay({ [SUBMIT]: { status: 503, body: 'Service Unavailable' } });
      const error = await upstreamFailureOf(muTaskAdapter.submit(CALL, context()));
      expect(error.failure).toMatchObject({ kind: 'overload', retryable: true, httpStatus: 503 });
    });

    it('refuses a stored request that is not a planned video call', async () => {
      upstream = await session.replay({});
      await expect(muTaskAdapter.submit({ ...CALL, request: { submission: {} } }, context())).rejects.toThrow(
        TypeError,
      );
      expect(upstream.requests).toHaveLength(0);
    });
  });

  describe('poll', () => {
    it.each([
      ['query-preparing.body', 'queued'],
      ['query-queueing.body', 'queued'],
      ['query-processing.body', 'processing'],
    ])('reads %s as pending, phase %s', async (body, phase) => {
      upstream = await session.replay({ [QUERY]: recorded(body) });
      expect(await muTaskAdapter.poll(HANDLE, context())).toEqual({ state: 'pending', phase });
      expect(upstream.requests[0].headers.authorization).toBe('Bearer mu-key-1');
    });

    it('on Success retrieves the file and completes with its download URL, the seconds asked and the frame tier', async () => {
      upstream = await session.replay({
        [QUERY]: recorded('query-success.body'),
        [RETRIEVE]: recorded('retrieve-file.body'),
      });
      expect(await muTaskAdapter.poll(HANDLE, context())).toEqual({
        state: 'completed',
        outputs: [
          { url: 'http://127.0.0.1:4010/files/video_Q2mX8v0kPz3nRt7LwYc5HbJd.mp4', contentType: 'video/mp4' },
        ],
        usage: { video: { seconds: 10, resolution: '768p' } },
        warnings: [],
      });
      expect(upstream.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
        QUERY,
        RETRIEVE,
      ]);
    });

    it('fails a Fail with the moderation code it carries, and a bare Fail as an upstream failure', async () => {
      upstream = await session.replay({ [QUERY]: recorded('query-fail-output-sensitive.body') });
      expect(await muTaskAdapter.poll(HANDLE, context())).toEqual({
        state: 'failed',
        failure: expect.objectContaining({ kind: 'content_policy', retryable: false, upstreamCode: '1027' }),
      });
      upstream = await session.replay({ [QUERY]: recorded('query-fail.body') });
      expect(await muTaskAdapter.poll(HANDLE, context())).toEqual({
        state: 'failed',
        failure: {
          kind: 'overload',
          retryable: true,
          message: 'the upstream task failed',
          upstreamCode: 'Fail',
        },
      });
    });

    it('fails a Success without a file', async () => {
      upstream = await session.replay({ [QUERY]: recorded('query-success-without-file.body') });
      expect(await muTaskAdapter.poll(HANDLE, context())).toMatchObject({
        state: 'failed',
        failure: { kind: 'overload', upstreamCode: 'Success' },
      });
    });

    it('reads an unknown status word as pending and says so in the log', async () => {
      upstream = await session.replay({ [QUERY]: recorded('query-unknown-status.body') });
      expect(await muTaskAdapter.poll(HANDLE, context())).toEqual({ state: 'pending' });
      expect(session.warnings).toEqual([expect.objectContaining({ fields: { status: 'Rendering' } })]);
    });

    it('throws a query answered with an error code, for the step processor to retry or fail by class', async () => {
      upstream = await session.replay({ [QUERY]: recorded('error-rate-limit.body') });
      const limited = await upstreamFailureOf(muTaskAdapter.poll(HANDLE, context()));
      expect(limited.failure).toMatchObject({ kind: 'rate_limit', retryable: true });
      upstream = await session.replay({ [QUERY]: recorded('submit-invalid-params.body') });
      const unknown = await upstreamFailureOf(muTaskAdapter.poll(HANDLE, context()));
      expect(unknown.failure).toMatchObject({ kind: 'bad_request', retryable: false });
    });

    it('throws when the retrieve call fails or answers for another file', async () => {
      upstream = await session.replay({
        [QUERY]: recorded('query-success.body'),
        [RETRIEVE]: recorded('error-unknown.body'),
      });
      const failed = await upstreamFailureOf(muTaskAdapter.poll(HANDLE, context()));
      expect(failed.failure).toMatchObject({ kind: 'overload', upstreamCode: '1000' });
      upstream = await session.replay({
        [QUERY]: recorded('query-success.body'),
        [RETRIEVE]: recorded('retrieve-other-file.body'),
      });
      const mismatched = await upstreamFailureOf(muTaskAdapter.poll(HANDLE, context()));
      expect(mismatched.failure).toMatchObject({
        kind: 'overload',
        retryable: true,
        message: 'the file-retrieve answer has no download URL for file 205258526306433',
      });
    });

    it('refuses a handle of another shape without calling the upstream', async () => {
      upstream = await session.replay({});
      await expect(muTaskAdapter.poll('106916112212032', context())).rejects.toThrow('not a mu task handle');
      expect(upstream.requests).toHaveLength(0);
    });
  });
});
