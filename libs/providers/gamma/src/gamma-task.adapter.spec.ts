import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  JsonHandle,
  NoChannelSettings,
  TaskAdapterContext,
  TaskCall,
  VideoRequest,
} from '@gateway/providers-core';
import {
  acceptedVideoPlan,
  receivedJson,
  upstreamFailureOf,
  useRecordedUpstreams,
  videoRequestOf,
  type RecordedUpstream,
} from '@gateway/providers-core/testing';
import type { GammaCredentials } from './gamma-credentials.parse';
import { GAMMA_QUOTA_BACKOFF_MS } from './gamma-error.classifier';
import { signGammaRequest } from './gamma-signature';
import { gammaTaskAdapter } from './gamma-task.adapter';
import { planGammaVideo } from './video/gamma-video.rules';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '__fixtures__', name));
const json = (name: string) => JSON.parse(fixture(name).toString('utf8'));

/** Both actions are `POST /`; the action travels in a header, so each test records one answer. */
const ACTION_ROUTE = 'POST /';
const CREDENTIALS: GammaCredentials = {
  subAppId: '1500000000',
  secretId: 'GSIDexample0123',
  secretKey: 'SecretKey4567',
};
const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const SESSION_ID = 'video_q2Xr0mRj3lBn5tPw8yZc1A';
const TASK_ID = '1500000000-AigcVideo-4f2c0a9e1b7d3c55';

const REQUEST = videoRequestOf({
  model: 'gamma-3.0-omni',
  prompt: 'a fox runs',
  seconds: 10,
  resolution: '1080P',
  images: [{ role: 'first_frame', url: 'https://img.example/a.png', source: 'image' }],
  dimensions: { audio: 'true' },
  metadata: { output_config: { resolution: '1080P', aspect_ratio: '16:9' } },
});

function plannedCall(request: VideoRequest = REQUEST, upstreamModel = request.model): TaskCall {
  return { upstreamModel, request: acceptedVideoPlan(planGammaVideo(request)).call };
}

const HANDLE: JsonHandle = { taskId: TASK_ID, seconds: 10, resolution: '1080p' };

describe('gammaTaskAdapter', () => {
  const session = useRecordedUpstreams();
  let upstream: RecordedUpstream;
  const contextFor = (
    credentials: GammaCredentials = CREDENTIALS,
  ): TaskAdapterContext<GammaCredentials, NoChannelSettings> =>
    session.taskContext({ baseUrl: upstream.baseUrl, credentials, settings: {} }, SESSION_ID, {
      now: () => NOW,
    });
  const answering = async (name: string, status = 200) => {
    upstream = await session.replay({ [ACTION_ROUTE]: { status, body: fixture(name) } });
  };
  const sentBody = (index = 0) => receivedJson(upstream, index);

  it('declares idempotent submission: the upstream de-duplicates by SessionId', () => {
    expect(gammaTaskAdapter.idempotentSubmit).toBe(true);
  });

  describe('submit', () => {
    it('signs CreateAigcVideoTask with the planned fields, the SubAppId as a number and the task id as SessionId', async () => {
      await answering('create-accepted.body');
      const { handle } = await gammaTaskAdapter.submit(plannedCall(), contextFor());

      const [sent] = upstream.requests;
      expect(sentBody()).toEqual({
        SubAppId: 1500000000,
        ModelName: 'Gamma',
        ModelVersion: '3.0-Omni',
        Prompt: 'a fox runs',
        FileInfos: [{ Type: 'Url', Category: 'Image', Url: 'https://img.example/a.png' }],
        OutputConfig: { Duration: 10, Resolution: '1080P', AspectRatio: '16:9', AudioGeneration: 'Enabled' },
        SessionId: SESSION_ID,
      });
      const expected = signGammaRequest({
        secretId: 'GSIDexample0123',
        secretKey: 'SecretKey4567',
        action: 'CreateAigcVideoTask',
        url: `${upstream.baseUrl}/`,
        body: sent.body,
        nowMs: NOW,
      });
      expect(sent.url).toBe('/');
      expect(sent.headers).toMatchObject({
        'content-type': 'application/json; charset=utf-8',
        host: new URL(upstream.baseUrl).host,
        'x-gamma-action': 'CreateAigcVideoTask',
        'x-gamma-version': '2018-07-17',
        'x-gamma-timestamp': String(NOW / 1000),
        authorization: expected.authorization,
      });
      expect(sent.headers.authorization).toMatch(
        /^GAMMA-HMAC-SHA256 Credential=GSIDexample0123\/2026-11-24\/media\/gamma_request, /,
      );
      expect(sent.headers['x-gamma-region']).toBeUndefined();
      expect(handle).toEqual({
        taskId: json('create-accepted.body').Response.TaskId,
        seconds: 10,
        resolution: '1080p',
      });
    });

    it('sends the key’s region as X-Gamma-Region', async () => {
      await answering('create-accepted.body');
      await gammaTaskAdapter.submit(plannedCall(), contextFor({ ...CREDENTIALS, region: 'north-2' }));
      expect(upstream.requests[0].headers['x-gamma-region']).toBe('north-2');
    });

    it('sends the same SessionId when an interrupted submission is sent again', async () => {
      upstream = await session.replay({
        [ACTION_ROUTE]: { status: 200, body: fixture('create-accepted.body') },
      });
      const first = await gammaTaskAdapter.submit(plannedCall(), contextFor());
      const second = await gammaTaskAdapter.submit(plannedCall(), contextFor());
      expect([sentBody(0).SessionId, sentBody(1).SessionId]).toEqual([SESSION_ID, SESSION_ID]);
      expect(second.handle).toEqual(first.handle);
    });

    it.each([
      ['gamma-2.5', '2.5'],
      ['gamma-avatar', '2.6'],
      ['2.1', '2.1'],
    ])('sends the version of the channel’s upstream model %s as %s', async (upstreamModel, version) => {
      await answering('create-accepted.body');
      await gammaTaskAdapter.submit(
        plannedCall({ ...REQUEST, model: 'gamma-2.6' }, upstreamModel),
        contextFor(),
      );
      expect(sentBody().ModelVersion).toBe(version);
    });

    it.each([
      ['error-content-audit.body', 'content_policy', false, 'InvalidParameterValue.ContentAudit'],
      ['error-invalid-value.body', 'bad_request', false, 'InvalidParameterValue'],
      ['error-signature-failure.body', 'auth', false, 'AuthFailure.SignatureFailure'],
      ['error-signature-expire.body', 'auth', false, 'AuthFailure.SignatureExpire'],
      ['error-unauthorized.body', 'auth', false, 'UnauthorizedOperation'],
      ['error-request-limit.body', 'rate_limit', true, 'RequestLimitExceeded'],
      ['error-internal.body', 'overload', true, 'InternalError'],
      [
        'error-insufficient-balance.body',
        'insufficient_balance',
        false,
        'FailedOperation.InsufficientBalance',
      ],
    ])(
      'throws the failure of an HTTP 200 answer carrying Response.Error (%s)',
      async (name, kind, retryable, code) => {
        await answering(name);
        const error = await upstreamFailureOf(gammaTaskAdapter.submit(plannedCall(), contextFor()));
        expect(error.failure).toEqual({
          kind,
          retryable,
          httpStatus: 200,
          upstreamCode: code,
          message: json(name).Response.Error.Message,
        });
      },
    );

    it('classifies an unknown sub-code by its category and asks for a long backoff on a quota limit', async () => {
      await answering('error-concurrency-limit.body');
      const error = await upstreamFailureOf(gammaTaskAdapter.submit(plannedCall(), contextFor()));
      expect(error.failure).toMatchObject({
        kind: 'rate_limit',
        retryable: true,
        upstreamCode: 'LimitExceeded.TaskConcurrency',
        retryAfterMs: GAMMA_QUOTA_BACKOFF_MS,
      });
    });

    it('reads Response.Error even on a non-200 answer, and a bare proxy error by its status', async () => {
      await answering('error-content-audit.body', 400);
      expect(
        (await upstreamFailureOf(gammaTaskAdapter.submit(plannedCall(), contextFor()))).failure,
      ).toMatchObject({
        kind: 'content_policy',
        httpStatus: 400,
      });
      upstream = await session.replay({
        [ACTION_ROUTE]: {
          status: 502,
          body: '<html>bad gateway</html>',
          headers: { 'content-type': 'text/html' },
        },
      });
      expect(
        (await upstreamFailureOf(gammaTaskAdapter.submit(plannedCall(), contextFor()))).failure,
      ).toMatchObject({
        kind: 'overload',
        retryable: true,
        httpStatus: 502,
      });
    });

    it.each([
      ['an answer without Response', '{"TaskId":"x"}'],
      ['a Response without TaskId', '{"Response":{"RequestId":"r"}}'],
      ['a body that is not JSON', 'ok'],
    ])('reads %s as a misbehaving upstream', async (_case, body) => {
      upstream = await session.replay({ [ACTION_ROUTE]: { status: 200, body } });
      const error = await upstreamFailureOf(gammaTaskAdapter.submit(plannedCall(), contextFor()));
      expect(error.failure).toMatchObject({ kind: 'overload', retryable: true });
    });

    it('refuses a task row that is not a video call, before any request', async () => {
      await answering('create-accepted.body');
      await expect(
        gammaTaskAdapter.submit({ upstreamModel: 'gamma-2.6', request: { prompt: 'x' } }, contextFor()),
      ).rejects.toThrow(TypeError);
      expect(upstream.requests).toHaveLength(0);
    });
  });

  describe('poll', () => {
    const pollAnswering = async (name: string) => {
      await answering(name);
      return gammaTaskAdapter.poll(HANDLE, contextFor());
    };

    it('asks DescribeTaskDetail for the stored TaskId, signed', async () => {
      await pollAnswering('describe-waiting.body');
      expect(sentBody()).toEqual({ SubAppId: 1500000000, TaskId: TASK_ID });
      expect(upstream.requests[0].headers['x-gamma-action']).toBe('DescribeTaskDetail');
      expect(upstream.requests[0].headers.authorization).toMatch(
        /^GAMMA-HMAC-SHA256 Credential=GSIDexample0123\//,
      );
    });

    it('reads WAITING as queued and PROCESSING as processing with its progress', async () => {
      expect(await pollAnswering('describe-waiting.body')).toEqual({
        state: 'pending',
        phase: 'queued',
        progress: 0,
      });
      expect(await pollAnswering('describe-processing.body')).toEqual({
        state: 'pending',
        phase: 'processing',
        progress: 40,
      });
    });

    it('reads FINISH with a file as the video, its duration as the seconds produced', async () => {
      expect(await pollAnswering('describe-finish.body')).toEqual({
        state: 'completed',
        outputs: [
          {
            url: json('describe-finish.body').Response.AigcVideoTask.Output.FileInfos[0].FileUrl,
            contentType: 'video/mp4',
          },
        ],
        usage: { video: { seconds: 10, resolution: '1080p' } },
        warnings: [],
      });
    });

    it('reports the seconds asked for when the answer gives no duration', async () => {
      await answering('describe-finish-no-metadata.body');
      const completed = await gammaTaskAdapter.poll(
        { taskId: TASK_ID, seconds: 15, resolution: '720p' },
        contextFor(),
      );
      expect(completed).toMatchObject({
        state: 'completed',
        usage: { video: { seconds: 15, resolution: '720p' } },
      });
    });

    it.each([
      ['describe-finish-failed.body', 'overload', 'GenerationFailed', 'The video could not be generated.'],
      [
        'describe-finish-content-audit.body',
        'content_policy',
        'ContentAuditFailed',
        'The generated video did not pass the content audit.',
      ],
      [
        'describe-finish-without-file.body',
        'overload',
        'FINISH',
        'the upstream reported the task finished without a file',
      ],
      ['describe-aborted.body', 'overload', 'ABORTED', 'the upstream aborted the task'],
    ])('reads %s as failed', async (name, kind, upstreamCode, message) => {
      expect(await pollAnswering(name)).toEqual({
        state: 'failed',
        failure: expect.objectContaining({ kind, upstreamCode, message }),
      });
    });

    it('keeps an unknown status pending, and says so in the log', async () => {
      expect(await pollAnswering('describe-unknown-status.body')).toEqual({ state: 'pending' });
      expect(session.warnings).toEqual([
        { message: expect.stringContaining('not in the status table'), fields: { status: 'PAUSED' } },
      ]);
    });

    it.each([
      ['error-resource-not-found.body', 'bad_request'],
      ['error-signature-failure.body', 'auth'],
      ['error-insufficient-balance.body', 'insufficient_balance'],
    ])('ends the task on a query refused for the task or the channel (%s)', async (name, kind) => {
      expect(await pollAnswering(name)).toEqual({
        state: 'failed',
        failure: expect.objectContaining({ kind }),
      });
    });

    it.each([
      ['error-request-limit.body', 'rate_limit'],
      ['error-internal.body', 'overload'],
    ])('throws what says nothing about the task, to ask again later (%s)', async (name, kind) => {
      await answering(name);
      const error = await upstreamFailureOf(gammaTaskAdapter.poll(HANDLE, contextFor()));
      expect(error.failure).toMatchObject({ kind, retryable: true });
    });

    it('refuses a handle another adapter wrote', async () => {
      await answering('describe-waiting.body');
      await expect(gammaTaskAdapter.poll({ taskId: TASK_ID }, contextFor())).rejects.toThrow(
        'not a gamma task handle',
      );
    });
  });
});
