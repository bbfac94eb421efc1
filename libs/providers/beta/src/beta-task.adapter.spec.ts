import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createUndiciHttpClient,
  type ClosableUpstreamHttpClient,
  type JsonHandle,
  type TaskAdapterContext,
  type TaskCall,
} from '@gateway/providers-core';
import {
  startRecordedUpstream,
  upstreamFailureOf,
  type RecordedUpstream,
} from '@gateway/providers-core/testing';
import type { BetaChannelSettings } from './beta-channel.settings';
import type { BetaCredentials } from './beta-credentials.parse';
import { signBetaRequest } from './beta-signature';
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
  let upstream: RecordedUpstream;
  let http: ClosableUpstreamHttpClient;
  const warnings: unknown[] = [];
  const contextFor = (
    credentials: BetaCredentials = SIGNED,
    settings: BetaChannelSettings = {},
  ): TaskAdapterContext<BetaCredentials, BetaChannelSettings> => ({
    channel: { baseUrl: upstream.baseUrl, credentials, settings },
    http,
    clock: { now: () => NOW },
    logger: { warn: (message, fields) => warnings.push({ message, fields }), debug: () => undefined },
    submissionKey: 'bt_task_1',
  });
  const sentBody = (index = 0): Record<string, unknown> =>
    JSON.parse(upstream.requests[index].body.toString('utf8'));

  beforeAll(() => {
    http = createUndiciHttpClient();
  });
  afterAll(() => http.close());
  afterEach(async () => {
    warnings.length = 0;
    await upstream?.close();
  });

  describe('submit', () => {
    it('signs the submission with the req_key of the model and keeps what the query needs', async () => {
      upstream = await startRecordedUpstream({
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
      upstream = await startRecordedUpstream({
        [SUBMIT]: { status: 200, body: fixture('submit-accepted.body') },
      });
      await betaTaskAdapter.submit(CALL, contextFor(SIGNED, { region: 'ap-south-1', service: 'imaging' }));
      expect(upstream.requests[0].headers.authorization).toContain('/20261124/ap-south-1/imaging/request,');
    });

    it('calls a relay on /bt with its Bearer key and no signature', async () => {
      upstream = await startRecordedUpstream({
        [RELAY_SUBMIT]: { status: 200, body: fixture('submit-accepted.body') },
      });
      await betaTaskAdapter.submit(CALL, contextFor({ kind: 'relay', apiKey: 'sk-relay-0123' }));
      const [sent] = upstream.requests;
      expect(sent.headers.authorization).toBe('Bearer sk-relay-0123');
      expect(sent.headers['x-date']).toBeUndefined();
      expect(sent.headers['x-content-sha256']).toBeUndefined();
    });

    it('sends a model the table does not know as the req_key itself, and prices the default area at 2k', async () => {
      upstream = await startRecordedUpstream({
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
      upstream = await startRecordedUpstream({ [SUBMIT]: { status, body: fixture(name) } });
      const error = await upstreamFailureOf(betaTaskAdapter.submit(CALL, contextFor()));
      expect(error.failure).toMatchObject({ kind, httpStatus: status });
    });

    it('reads a 2xx answer whose code is not the success code as the refusal it is', async () => {
      upstream = await startRecordedUpstream({
        [SUBMIT]: { status: 200, body: fixture('submit-text-risk.body') },
      });
      const error = await upstreamFailureOf(betaTaskAdapter.submit(CALL, contextFor()));
      expect(error.failure).toMatchObject({ kind: 'content_policy', upstreamCode: '50412' });
    });
  });

  describe('poll', () => {
    const pollWith = async (status: number, name: string) => {
      upstream = await startRecordedUpstream({ [GET_RESULT]: { status, body: fixture(name) } });
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

    it.each(['result-in-queue.body', 'result-generating.body'])('reads %s as pending', async (name) => {
      expect(await pollWith(200, name)).toEqual({ state: 'pending' });
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
      upstream = await startRecordedUpstream({
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
      upstream = await startRecordedUpstream({
        [GET_RESULT]: { status: 200, body: JSON.stringify({ code: 10000, data: { status: 'reviewing' } }) },
      });
      expect(await betaTaskAdapter.poll(HANDLE, contextFor())).toEqual({ state: 'pending' });
      expect(warnings).toEqual([{ message: expect.any(String), fields: { status: 'reviewing' } }]);
    });

    it('refuses a handle that is not its own', async () => {
      upstream = await startRecordedUpstream({});
      await expect(betaTaskAdapter.poll('upstream-1', contextFor())).rejects.toThrow(
        'not a beta task handle',
      );
      expect(upstream.requests).toHaveLength(0);
    });
  });
});
