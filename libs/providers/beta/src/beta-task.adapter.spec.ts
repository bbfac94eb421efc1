import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  signBetaRequest,
  type JsonHandle,
  type TaskAdapterContext,
  type TaskCall,
  type VideoCall,
} from '@gateway/providers-core';
import {
  receivedJson,
  upstreamFailureOf,
  useRecordedUpstreams,
  videoCallOf,
  type RecordedUpstream,
} from '@gateway/providers-core/testing';
import type { BetaChannelSettings } from './beta-channel.settings';
import type { BetaCredentials } from './beta-credentials.parse';
import { betaTaskAdapter } from './beta-task.adapter';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '__fixtures__', name));
const json = (name: string) => JSON.parse(fixture(name).toString('utf8'));

const SUBMIT = 'POST /?Action=CVSync2AsyncSubmitTask&Version=2022-08-31';
const GET_RESULT = 'POST /?Action=CVSync2AsyncGetResult&Version=2022-08-31';
const RELAY_SUBMIT = 'POST /bt?Action=CVSync2AsyncSubmitTask&Version=2022-08-31';
const SIGNED: BetaCredentials = { kind: 'signed', accessKey: 'AKLTexample0123', secretKey: 'SecretKey4567' };
const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);

const CALL: TaskCall = {
  upstreamModel: 'beta-4.0',
  request: {
    submission: { prompt: 'a red kite over the sea', width: 1024, height: 1024, force_single: true },
    resultOptions: { logo_info: { add_logo: false } },
  },
};

/** The handle submit stores for CALL on a task the upstream numbered 7392616336519610409. */
const HANDLE: JsonHandle = {
  taskId: '7392616336519610409',
  reqKey: 'beta_t2i_v40',
  reqJson: '{"logo_info":{"add_logo":false},"return_url":true}',
  tier: '1k',
};

describe('betaTaskAdapter', () => {
  const session = useRecordedUpstreams();
  let upstream: RecordedUpstream;
  const contextFor = (
    credentials: BetaCredentials = SIGNED,
    settings: BetaChannelSettings = {},
  ): TaskAdapterContext<BetaCredentials, BetaChannelSettings> =>
    session.taskContext({ baseUrl: upstream.baseUrl, credentials, settings }, 'bt_task_1', {
      now: () => NOW,
    });
  const sentBody = (index = 0) => receivedJson(upstream, index);

  describe('submit', () => {
    it('signs the submission with the req_key of the model and keeps what the query needs', async () => {
      upstream = await session.replay({
        [SUBMIT]: { status: 200, body: fixture('submit-accepted.body') },
      });
      const { handle } = await betaTaskAdapter.submit(CALL, contextFor());

      const [sent] = upstream.requests;
      expect(sentBody()).toEqual({
        req_key: 'beta_t2i_v40',
        prompt: 'a red kite over the sea',
        width: 1024,
        height: 1024,
        force_single: true,
      });
      const host = new URL(upstream.baseUrl).host;
      const expected = signBetaRequest({
        accessKey: 'AKLTexample0123',
        secretKey: 'SecretKey4567',
        region: 'cn-north-1',
        service: 'cv',
        method: 'POST',
        url: `${upstream.baseUrl}/?Action=CVSync2AsyncSubmitTask&Version=2022-08-31`,
        body: sent.body,
        nowMs: NOW,
      });
      expect(sent.headers).toMatchObject({
        host,
        'x-date': '20261124T120000Z',
        'x-content-sha256': expected['x-content-sha256'],
        authorization: expected.authorization,
      });
      expect(sent.headers.authorization).toMatch(
        /Credential=AKLTexample0123\/20261124\/cn-north-1\/cv\/request/,
      );
      expect(handle).toEqual({ ...(HANDLE as object), taskId: json('submit-accepted.body').data.task_id });
    });

    it('signs for the region and service the channel settings name', async () => {
      upstream = await session.replay({
        [SUBMIT]: { status: 200, body: fixture('submit-accepted.body') },
      });
      await betaTaskAdapter.submit(CALL, contextFor(SIGNED, { region: 'ap-south-1', service: 'imaging' }));
      expect(upstream.requests[0].headers.authorization).toContain('/20261124/ap-south-1/imaging/request,');
    });

    it('calls a relay on /bt with its Bearer key and no signature', async () => {
      upstream = await session.replay({
        [RELAY_SUBMIT]: { status: 200, body: fixture('submit-accepted.body') },
      });
      await betaTaskAdapter.submit(CALL, contextFor({ kind: 'relay', apiKey: 'sk-relay-0123' }));
      const [sent] = upstream.requests;
      expect(sent.headers.authorization).toBe('Bearer sk-relay-0123');
      expect(sent.headers['x-date']).toBeUndefined();
      expect(sent.headers['x-content-sha256']).toBeUndefined();
    });

    it('sends a model the table does not know as the req_key itself, and prices the default area at 2k', async () => {
      upstream = await session.replay({
        [SUBMIT]: { status: 200, body: fixture('submit-accepted.body') },
      });
      const { handle } = await betaTaskAdapter.submit(
        { upstreamModel: 'beta_t2i_v45', request: { submission: { prompt: 'a kite' }, resultOptions: {} } },
        contextFor(),
      );
      expect(sentBody()).toEqual({ req_key: 'beta_t2i_v45', prompt: 'a kite' });
      expect(handle).toMatchObject({ reqKey: 'beta_t2i_v45', reqJson: '{"return_url":true}', tier: '2k' });
    });

    it.each([
      ['submit-text-risk.body', 400, 'content_policy'],
      ['submit-invalid-param.body', 400, 'bad_request'],
      ['error-signature.body', 401, 'auth'],
      ['error-rate-limit.body', 429, 'rate_limit'],
    ])('throws the failure of a refused submission (%s)', async (name, status, kind) => {
      upstream = await session.replay({ [SUBMIT]: { status, body: fixture(name) } });
      const error = await upstreamFailureOf(betaTaskAdapter.submit(CALL, contextFor()));
      expect(error.failure).toMatchObject({ kind, httpStatus: status });
    });

    it('reads a 2xx answer whose code is not the success code as the refusal it is', async () => {
      upstream = await session.replay({
        [SUBMIT]: { status: 200, body: fixture('submit-text-risk.body') },
      });
      const error = await upstreamFailureOf(betaTaskAdapter.submit(CALL, contextFor()));
      expect(error.failure).toMatchObject({ kind: 'content_policy', upstreamCode: '50412' });
    });
  });

  describe('poll', () => {
    const pollWith = async (status: number, name: string) => {
      upstream = await session.replay({ [GET_RESULT]: { status, body: fixture(name) } });
      return betaTaskAdapter.poll(HANDLE, contextFor());
    };

    it('asks with the stored req_key, task id and req_json string, signed', async () => {
      await pollWith(200, 'result-in-queue.body');
      expect(sentBody()).toEqual({
        req_key: 'beta_t2i_v40',
        task_id: '7392616336519610409',
        req_json: '{"logo_info":{"add_logo":false},"return_url":true}',
      });
      expect(upstream.requests[0].headers.authorization).toMatch(/^HMAC-SHA256 Credential=AKLTexample0123\//);
    });

    it.each([
      ['result-in-queue.body', 'queued'],
      ['result-generating.body', 'processing'],
    ])('reads %s as pending, %s', async (name, phase) => {
      expect(await pollWith(200, name)).toEqual({ state: 'pending', phase });
    });

    it('reads done as the images: the Base64 bytes with the URL beside them', async () => {
      const result = await pollWith(200, 'result-done.body');
      const data = json('result-done.body').data;
      expect(result).toEqual({
        state: 'completed',
        outputs: [
          {
            bytes: Buffer.from(data.binary_data_base64[0], 'base64'),
            url: data.image_urls[0],
            contentType: 'image/png',
          },
        ],
        usage: { images: { count: 1, size: '1k' } },
        warnings: [],
      });
    });

    it('counts every image of a group answer', async () => {
      const result = await pollWith(200, 'result-done-two-images.body');
      expect(result.state === 'completed' && result.outputs.map((output) => output.url)).toEqual(
        json('result-done-two-images.body').data.image_urls,
      );
      expect(result.state === 'completed' && result.usage?.images?.count).toBe(2);
    });

    it('keeps the bytes alone when the answer has no URLs', async () => {
      const result = await pollWith(200, 'result-done-base64-only.body');
      expect(result.state === 'completed' && result.outputs[0].url).toBeUndefined();
      expect(result.state === 'completed' && result.outputs[0].bytes?.subarray(1, 4).toString()).toBe('PNG');
    });

    it.each([
      ['result-not-found.body', 'not_found'],
      ['result-expired.body', 'expired'],
    ])('reads %s as failed: the upstream has no result for the task', async (name, upstreamCode) => {
      expect(await pollWith(200, name)).toMatchObject({
        state: 'failed',
        failure: { kind: 'bad_request', retryable: false, upstreamCode },
      });
    });

    it('reads a blocked output as a failed task with a retryable content-policy failure', async () => {
      expect(await pollWith(400, 'result-output-blocked.body')).toMatchObject({
        state: 'failed',
        failure: { kind: 'content_policy', retryable: true, upstreamCode: '50511', httpStatus: 400 },
      });
    });

    it('fails the task when the upstream refuses the query for good (wrong signature)', async () => {
      expect(await pollWith(401, 'error-signature.body')).toMatchObject({
        state: 'failed',
        failure: { kind: 'auth' },
      });
    });

    it('throws a rate limit, which says nothing about the task, so the caller asks again', async () => {
      const error = await upstreamFailureOf(pollWith(429, 'error-rate-limit.body'));
      expect(error.failure).toMatchObject({ kind: 'rate_limit', retryable: true });
    });

    it('throws a 5xx without a business code (a proxy page), so the caller asks again', async () => {
      upstream = await session.replay({
        [GET_RESULT]: { status: 502, body: '<html>Bad Gateway</html>' },
      });
      const error = await upstreamFailureOf(betaTaskAdapter.poll(HANDLE, contextFor()));
      expect(error.failure).toMatchObject({ kind: 'overload', retryable: true });
    });

    it('reads a query answered 50500 as a failed task (§4.5: a code other than 10000 ends it)', async () => {
      expect(await pollWith(500, 'error-internal.body')).toMatchObject({
        state: 'failed',
        failure: { kind: 'overload', upstreamCode: '50500', httpStatus: 500 },
      });
    });

    it('reads a status outside the table as pending, and says so in the log', async () => {
      upstream = await session.replay({
        [GET_RESULT]: { status: 200, body: JSON.stringify({ code: 10000, data: { status: 'reviewing' } }) },
      });
      expect(await betaTaskAdapter.poll(HANDLE, contextFor())).toEqual({ state: 'pending' });
      expect(session.warnings).toEqual([{ message: expect.any(String), fields: { status: 'reviewing' } }]);
    });

    it('refuses a handle that is not its own', async () => {
      upstream = await session.replay({});
      await expect(betaTaskAdapter.poll('upstream-1', contextFor())).rejects.toThrow(
        'not a beta task handle',
      );
      expect(upstream.requests).toHaveLength(0);
    });
  });

  describe('video calls', () => {
    const videoCall = (fields: Partial<VideoCall> = {}, upstreamModel = 'beta-video-3.0'): TaskCall => ({
      upstreamModel,
      request: videoCallOf({
        family: 'beta',
        prompt: 'a kite over the dunes',
        seconds: 10,
        resolution: '1080p',
        size: null,
        aspectRatio: '21:9',
        extras: { seed: 7 },
        ...fields,
      }),
    });
    const VIDEO_HANDLE: JsonHandle = {
      kind: 'video',
      taskId: '7392616336519610409',
      reqKey: 'beta_t2v_v30_1080p',
      seconds: 10,
      resolution: '1080p',
    };

    it('submits text to video with the req_key of the model, mode and resolution, frames for the seconds', async () => {
      upstream = await session.replay({
        [SUBMIT]: { status: 200, body: fixture('submit-accepted.body') },
      });
      const { handle } = await betaTaskAdapter.submit(videoCall(), contextFor());
      expect(sentBody()).toEqual({
        req_key: 'beta_t2v_v30_1080p',
        prompt: 'a kite over the dunes',
        frames: 241,
        aspect_ratio: '21:9',
        seed: 7,
      });
      expect(upstream.requests[0].headers.authorization).toMatch(/^HMAC-SHA256 Credential=AKLTexample0123\//);
      expect(handle).toEqual({
        ...(VIDEO_HANDLE as object),
        taskId: json('submit-accepted.body').data.task_id,
      });
    });

    it('sends URL frames as image_urls and uploaded frames as bare Base64, through a relay too', async () => {
      upstream = await session.replay({
        [SUBMIT]: { status: 200, body: fixture('submit-accepted.body') },
        [RELAY_SUBMIT]: { status: 200, body: fixture('submit-accepted.body') },
      });
      const images = [
        { role: 'first_frame' as const, url: 'https://images.test/first.png' },
        { role: 'last_frame' as const, url: 'https://images.test/last.png' },
      ];
      await betaTaskAdapter.submit(
        videoCall({
          mode: 'first_last',
          images,
          aspectRatio: null,
          resolution: '720p',
          seconds: 5,
          extras: {},
        }),
        contextFor(),
      );
      expect(sentBody()).toEqual({
        req_key: 'beta_i2v_first_tail_v30',
        prompt: 'a kite over the dunes',
        image_urls: ['https://images.test/first.png', 'https://images.test/last.png'],
        frames: 121,
      });
      const upload = [{ role: 'first_frame' as const, url: 'data:image/png;base64,iVBORw0KGgo=' }];
      const relayKey: BetaCredentials = { kind: 'relay', apiKey: 'sk-relay-0123' };
      await betaTaskAdapter.submit(
        videoCall(
          { mode: 'first_frame', images: upload, aspectRatio: null, prompt: '', resolution: '720p' },
          'beta-video-2.0',
        ),
        contextFor(relayKey),
      );
      expect(upstream.requests[1].url).toBe('/bt?Action=CVSync2AsyncSubmitTask&Version=2022-08-31');
      expect(upstream.requests[1].headers.authorization).toBe('Bearer sk-relay-0123');
      expect(sentBody(1)).toEqual({
        req_key: 'beta_vgfm_i2v_l20',
        binary_data_base64: ['iVBORw0KGgo='],
        frames: 241,
        seed: 7,
      });
    });

    it('sends a req_key the channel maps to as it is, and refuses a call the pro key cannot run', async () => {
      upstream = await session.replay({
        [SUBMIT]: { status: 200, body: fixture('submit-accepted.body') },
      });
      const { handle } = await betaTaskAdapter.submit(videoCall({}, 'beta_ti2v_v30_pro'), contextFor());
      expect(handle).toMatchObject({ kind: 'video', reqKey: 'beta_ti2v_v30_pro' });
      const refused = await upstreamFailureOf(
        betaTaskAdapter.submit(videoCall({ mode: 'first_last' }, 'beta-video-3.0-pro'), contextFor()),
      );
      expect(refused.failure).toMatchObject({ kind: 'bad_request', retryable: false });
      expect(upstream.requests).toHaveLength(1);
    });

    it('queries without req_json and reads done as the video URL, billed at the submitted seconds', async () => {
      upstream = await session.replay({
        [GET_RESULT]: { status: 200, body: fixture('result-video-done.body') },
      });
      const result = await betaTaskAdapter.poll(VIDEO_HANDLE, contextFor());
      expect(sentBody()).toEqual({ req_key: 'beta_t2v_v30_1080p', task_id: '7392616336519610409' });
      expect(result).toEqual({
        state: 'completed',
        outputs: [{ url: json('result-video-done.body').data.video_url, contentType: 'video/mp4' }],
        usage: { video: { seconds: 10, resolution: '1080p' } },
        warnings: [],
      });
    });

    it.each([
      ['result-in-queue.body', 200, { state: 'pending', phase: 'queued' }],
      [
        'result-video-blocked.body',
        400,
        {
          state: 'failed',
          failure: expect.objectContaining({
            kind: 'content_policy',
            retryable: true,
            upstreamCode: '50516',
          }),
        },
      ],
      [
        'result-expired.body',
        200,
        {
          state: 'failed',
          failure: expect.objectContaining({ kind: 'bad_request', upstreamCode: 'expired' }),
        },
      ],
      [
        'result-video-done-without-url.body',
        200,
        { state: 'failed', failure: expect.objectContaining({ kind: 'overload', upstreamCode: 'done' }) },
      ],
    ])('reads %s', async (name, status, expected) => {
      upstream = await session.replay({ [GET_RESULT]: { status, body: fixture(name) } });
      expect(await betaTaskAdapter.poll(VIDEO_HANDLE, contextFor())).toEqual(expected);
    });
  });
});
