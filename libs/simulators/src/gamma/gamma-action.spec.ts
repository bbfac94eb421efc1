import { RunningSimulator, startSimulator } from '../server';
import { signedBetaHeaders } from '../testing/beta-request-signer.util';
import { signedGammaHeaders } from '../testing/gamma-request-signer.util';
import { getBytes, postJson, simulatorStats } from '../testing/simulator-client.util';

const SUB_APP_ID = 1500000000;
const OTHER_SUB_APP_ID = 1600000000;
const IMAGE = 'https://img.example/first.png';

interface CallOptions {
  secretId?: string;
  secretKey?: string;
  now?: Date;
  region?: string;
  /** A `/@…` prefix; the signature covers the path as sent. */
  prefix?: string;
  directives?: string;
  /** Headers replaced after signing. */
  headers?: Record<string, string>;
}

interface GammaResponse {
  Response: Record<string, unknown> & {
    RequestId: string;
    Error?: { Code: string; Message: string };
    TaskId?: string;
    AigcVideoTask?: Record<string, unknown> & { Output: { FileInfos: Array<Record<string, unknown>> } };
  };
}

describe('gamma AIGC task API', () => {
  let simulator: RunningSimulator;
  let host: string;

  const action = async (name: string, body: unknown, options: CallOptions = {}) => {
    const text = JSON.stringify(body);
    const path = options.prefix ? `/@${options.prefix}/` : '/';
    const headers = signedGammaHeaders({
      secretId: options.secretId ?? 'sim-gamma-sid',
      secretKey: options.secretKey ?? 'sim-gamma-skey',
      host,
      action: name,
      body: text,
      path,
      region: options.region,
      now: options.now,
    });
    delete headers['host'];
    const answer = await postJson(`${simulator.url}${path}`, text, {
      ...headers,
      ...(options.directives ? { 'x-sim': options.directives } : {}),
      ...options.headers,
    });
    return { status: answer.status, body: JSON.parse(answer.text) as GammaResponse };
  };
  const createBody = (fields: Record<string, unknown> = {}) => ({
    SubAppId: SUB_APP_ID,
    ModelName: 'Gamma',
    ModelVersion: '3.0-Omni',
    Prompt: 'a fox runs',
    OutputConfig: { Duration: 10, Resolution: '1080P', AspectRatio: '16:9' },
    ...fields,
  });
  const create = async (fields: Record<string, unknown> = {}, options: CallOptions = {}): Promise<string> => {
    const answer = await action('CreateAigcVideoTask', createBody(fields), options);
    expect(answer.status).toBe(200);
    expect(answer.body.Response.Error).toBeUndefined();
    return String(answer.body.Response.TaskId);
  };
  const describeTask = async (taskId: string, options: CallOptions = {}, subAppId = SUB_APP_ID) =>
    (await action('DescribeTaskDetail', { SubAppId: subAppId, TaskId: taskId }, options)).body.Response;
  const errorOf = async (name: string, body: unknown, options: CallOptions = {}) => {
    const answer = await action(name, body, options);
    expect(answer.status).toBe(200);
    return answer.body.Response.Error;
  };

  beforeAll(async () => {
    simulator = await startSimulator({
      keys: {
        gamma: ['1500000000|sim-gamma-sid|sim-gamma-skey', '1600000000|other-sid|other-skey|north-2'],
      },
    });
    host = new URL(simulator.url).host;
  });
  afterAll(() => simulator.close());

  it('creates a task in the §5.3 envelope, HTTP 200', async () => {
    const answer = await action('CreateAigcVideoTask', createBody());
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      Response: {
        TaskId: expect.stringMatching(/^1500000000-AigcVideo-[0-9a-f]{32}$/),
        RequestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    });
  });

  it('walks WAITING → PROCESSING → FINISH over the scripted polls, then serves the mp4', async () => {
    const taskId = await create(
      { SessionId: 'video_walk', SessionContext: 'ctx' },
      { directives: 'polls=3' },
    );
    const answers = [];
    for (let query = 0; query < 4; query += 1) answers.push(await describeTask(taskId));
    expect(answers.map((answer) => [answer.Status, answer.AigcVideoTask?.Progress])).toEqual([
      ['WAITING', 0],
      ['PROCESSING', 33],
      ['PROCESSING', 67],
      ['FINISH', 100],
    ]);
    const finished = answers[3];
    expect(finished).toMatchObject({
      TaskType: 'AigcVideoTask',
      CreateTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      BeginProcessTime: expect.stringMatching(/Z$/),
      FinishTime: expect.stringMatching(/Z$/),
      AigcVideoTask: {
        TaskId: taskId,
        Status: 'FINISH',
        ErrCode: 0,
        ErrCodeExt: '',
        Message: '',
        Input: { ModelName: 'Gamma', ModelVersion: '3.0-Omni', Prompt: 'a fox runs' },
        SessionId: 'video_walk',
        SessionContext: 'ctx',
      },
    });
    const [file] = finished.AigcVideoTask?.Output.FileInfos ?? [];
    expect(file).toEqual({
      FileType: 'mp4',
      FileUrl: expect.stringMatching(new RegExp(`^http://${host}/files/video_\\w+\\.mp4$`)),
      StorageMode: 'Temporary',
      MediaName: '',
      ClassId: 0,
      ExpireTime: expect.stringMatching(/Z$/),
      FileId: '',
      MetaData: { Duration: 10, Width: 1920, Height: 1080, Size: expect.any(Number), Container: 'mp4' },
    });
    const download = await getBytes(String(file['FileUrl']));
    expect(download.status).toBe(200);
    expect(download.contentType).toBe('video/mp4');
    expect(download.bytes.subarray(4, 8).toString('ascii')).toBe('ftyp');
    expect((await describeTask(taskId)).AigcVideoTask?.Output.FileInfos[0]['FileUrl']).toBe(file['FileUrl']);
  });

  it('stays pending until task_ms has passed', async () => {
    const taskId = await create({}, { directives: 'task_ms=60000' });
    expect((await describeTask(taskId)).Status).toBe('WAITING');
    const processing = await describeTask(taskId);
    expect(processing.Status).toBe('PROCESSING');
    expect(processing.AigcVideoTask?.Progress).toBeGreaterThanOrEqual(1);
  });

  it('gives a Permanent file an id and keeps its ExpireTime as asked', async () => {
    const taskId = await create({
      OutputConfig: { Duration: 5, StorageMode: 'Permanent', ExpireTime: '2027-01-01T00:00:00Z', ClassId: 4 },
    });
    const [file] = (await describeTask(taskId)).AigcVideoTask?.Output.FileInfos ?? [];
    expect(file).toMatchObject({
      StorageMode: 'Permanent',
      FileId: expect.stringMatching(/^\d{19}$/),
      ExpireTime: '2027-01-01T00:00:00Z',
      ClassId: 4,
      MetaData: { Duration: 5, Width: 1280, Height: 720 },
    });
  });

  describe('SessionId', () => {
    it('answers the task an earlier create of the same SessionId made, and counts the replay', async () => {
      const before = (await simulatorStats(simulator.url)).byRoute;
      const first = await create({ SessionId: 'video_once' });
      const again = await create({ SessionId: 'video_once', Prompt: 'a different prompt' });
      const other = await create({ SessionId: 'video_twice' });
      expect(again).toBe(first);
      expect(other).not.toBe(first);
      const after = (await simulatorStats(simulator.url)).byRoute;
      const delta = (route: string) => (after[route] ?? 0) - (before[route] ?? 0);
      expect([
        delta('gamma:createAigcVideoTask'),
        delta('gamma:taskCreated'),
        delta('gamma:sessionReplay'),
      ]).toEqual([3, 2, 1]);
    });

    it('keeps SessionIds apart per SubAppId', async () => {
      const mine = await create({ SessionId: 'video_shared' });
      const theirs = await create(
        { SessionId: 'video_shared', SubAppId: OTHER_SUB_APP_ID },
        { secretId: 'other-sid', secretKey: 'other-skey', region: 'north-2' },
      );
      expect(theirs).toMatch(/^1600000000-AigcVideo-/);
      expect(theirs).not.toBe(mine);
    });
  });

  describe('scripted outcomes', () => {
    it.each([
      ['rate_limit', 'RequestLimitExceeded'],
      ['overload', 'InternalError'],
      ['auth', 'AuthFailure.SignatureFailure'],
      ['bad_request', 'InvalidParameterValue'],
      ['content_policy', 'InvalidParameterValue.ContentAudit'],
      ['insufficient_balance', 'FailedOperation.InsufficientBalance'],
    ])(
      'error=%s answers %s in Response.Error, HTTP 200, on create and on query',
      async (errorClass, code) => {
        expect(
          await errorOf('CreateAigcVideoTask', createBody(), { directives: `error=${errorClass}` }),
        ).toEqual({
          Code: code,
          Message: expect.any(String),
        });
        const taskId = await create();
        expect(
          await errorOf(
            'DescribeTaskDetail',
            { SubAppId: SUB_APP_ID, TaskId: taskId },
            { prefix: `error=${errorClass}` },
          ),
        ).toMatchObject({ Code: code });
      },
    );

    it('code= picks any code, LimitExceeded included', async () => {
      expect(
        await errorOf('CreateAigcVideoTask', createBody(), {
          directives: 'error=rate_limit;code=LimitExceeded',
        }),
      ).toMatchObject({ Code: 'LimitExceeded' });
    });

    it('error=timeout stays silent for the hang time, then answers InternalError', async () => {
      expect(await errorOf('CreateAigcVideoTask', createBody(), { directives: 'hang=20' })).toEqual({
        Code: 'InternalError',
        Message: 'The request timed out.',
      });
    });

    it('error_after=n fails the task after n pending answers, with ErrCode and ErrCodeExt', async () => {
      const taskId = await create({}, { directives: 'error=overload;error_after=1' });
      expect((await describeTask(taskId)).Status).toBe('WAITING');
      const failed = await describeTask(taskId);
      expect(failed.AigcVideoTask).toMatchObject({
        Status: 'FINISH',
        ErrCode: 70000,
        ErrCodeExt: 'InternalError',
        Message: 'The video could not be generated.',
        Output: { FileInfos: [] },
      });
    });

    it('a base URL with error_after scripts every create and leaves queries alone', async () => {
      const prefix = 'error=insufficient_balance;error_after=0';
      const taskId = await create({}, { prefix });
      expect((await describeTask(taskId, { prefix })).AigcVideoTask).toMatchObject({
        Status: 'FINISH',
        ErrCodeExt: 'FailedOperation.InsufficientBalance',
      });
    });

    it('block=prompt refuses the create; block=output fails the task with ContentAuditFailed', async () => {
      expect(
        await errorOf('CreateAigcVideoTask', createBody({ Prompt: 'x [[sim block=prompt]]' })),
      ).toMatchObject({
        Code: 'InvalidParameterValue.ContentAudit',
      });
      const taskId = await create({}, { directives: 'block=output' });
      expect((await describeTask(taskId)).AigcVideoTask).toMatchObject({
        Status: 'FINISH',
        ErrCode: 40000,
        ErrCodeExt: 'ContentAuditFailed',
        Message: 'The generated video did not pass the content audit.',
      });
    });

    it.each([
      ['aborted', 'ABORTED', 0],
      ['empty', 'FINISH', 0],
      ['paused', 'PAUSED', 0],
    ])('finish=%s ends the task as %s with %s files', async (finish, status, files) => {
      const taskId = await create({}, { directives: `finish=${finish}` });
      const answer = await describeTask(taskId);
      expect(answer.Status).toBe(status);
      expect(answer.AigcVideoTask?.Output.FileInfos).toHaveLength(files);
    });

    it('expired_links=1 hands out an expired link, then a live one on the next query', async () => {
      const taskId = await create({}, { directives: 'expired_links=1' });
      const first = String((await describeTask(taskId)).AigcVideoTask?.Output.FileInfos[0]['FileUrl']);
      expect((await getBytes(first)).status).toBe(403);
      const second = String((await describeTask(taskId)).AigcVideoTask?.Output.FileInfos[0]['FileUrl']);
      expect(second).not.toBe(first);
      expect((await getBytes(second)).status).toBe(200);
    });

    it('result_host= points the link at another host', async () => {
      const taskId = await create({}, { directives: 'result_host=10.0.0.7:8080' });
      expect((await describeTask(taskId)).AigcVideoTask?.Output.FileInfos[0]['FileUrl']).toMatch(
        /^http:\/\/10\.0\.0\.7:8080\/files\/video_\w+\.mp4$/,
      );
    });
  });

  describe('checks', () => {
    it.each([
      [{ ModelVersion: '9.9' }, 'InvalidParameterValue', 'ModelVersion'],
      [{ ModelName: 'Other' }, 'InvalidParameterValue', 'ModelName'],
      [{ ModelName: undefined }, 'MissingParameter', 'ModelName'],
      [{ OutputConfig: { Duration: 15 }, ModelVersion: '2.6' }, 'InvalidParameterValue', 'between 5 and 10'],
      [{ OutputConfig: { Duration: 4 } }, 'InvalidParameterValue', 'Duration'],
      [{ OutputConfig: { Resolution: '4K' } }, 'InvalidParameterValue', 'Resolution'],
      [{ OutputConfig: { AspectRatio: '4:3' } }, 'InvalidParameterValue', 'AspectRatio'],
      [{ OutputConfig: { AudioGeneration: 'On' } }, 'InvalidParameterValue', 'AudioGeneration'],
      [{ Prompt: undefined }, 'MissingParameter', 'Prompt'],
      [{ Prompt: 'p'.repeat(2001) }, 'InvalidParameterValue', 'Prompt'],
      [{ FileInfos: [1, 2, 3, 4] }, 'InvalidParameterValue', 'at most 3'],
      [{ FileInfos: [{ Type: 'Url', Category: 'Image', Url: 'data:x' }] }, 'InvalidParameterValue', 'Url'],
      [{ LastFrameUrl: IMAGE }, 'InvalidParameterValue', 'first frame'],
      [{ SceneType: 'dance' }, 'InvalidParameterValue', 'SceneType'],
      [{ ExtInfo: { template: 'x' } }, 'InvalidParameterValue', 'ExtInfo'],
      [{ SessionId: 's'.repeat(51) }, 'InvalidParameterValue', 'SessionId'],
      [{ Watermark: true }, 'InvalidParameter', 'Watermark'],
      [{ SubAppId: undefined }, 'MissingParameter', 'SubAppId'],
      [{ SubAppId: '1500000000' }, 'InvalidParameterValue', 'SubAppId'],
      [{ SubAppId: OTHER_SUB_APP_ID }, 'UnauthorizedOperation', 'SubAppId'],
    ])('refuses %j with %s', async (fields, code, reason) => {
      expect(await errorOf('CreateAigcVideoTask', createBody(fields))).toEqual({
        Code: code,
        Message: expect.stringContaining(reason),
      });
    });

    it('accepts an image task without a prompt, with a last frame and a scene', async () => {
      await create({
        Prompt: undefined,
        FileInfos: [{ Type: 'Url', Category: 'Image', Url: IMAGE }],
        LastFrameUrl: 'https://img.example/last.png',
        SceneType: 'avatar_i2v',
        ExtInfo: '{"AdditionalParameters":{"template":"x"}}',
      });
    });

    it('answers ResourceNotFound for an unknown task and for another SubAppId’s', async () => {
      expect(
        await errorOf('DescribeTaskDetail', { SubAppId: SUB_APP_ID, TaskId: '1500000000-AigcVideo-00' }),
      ).toMatchObject({
        Code: 'ResourceNotFound',
      });
      const taskId = await create();
      expect(
        await errorOf(
          'DescribeTaskDetail',
          { SubAppId: OTHER_SUB_APP_ID, TaskId: taskId },
          { secretId: 'other-sid', secretKey: 'other-skey' },
        ),
      ).toMatchObject({ Code: 'ResourceNotFound' });
    });

    it('refuses an unknown action and another version', async () => {
      expect(await errorOf('DeleteAigcVideoTask', createBody())).toMatchObject({
        Code: 'InvalidParameter',
        Message: 'The action DeleteAigcVideoTask is not supported.',
      });
      expect(
        await errorOf('CreateAigcVideoTask', createBody(), { headers: { 'x-gamma-version': '2017-01-01' } }),
      ).toMatchObject({
        Code: 'InvalidParameter',
      });
    });
  });

  describe('the §5.2 verifier over HTTP', () => {
    it('refuses an unknown SecretId, a wrong signature and a timestamp 301 s old, HTTP 200 each', async () => {
      expect(await errorOf('CreateAigcVideoTask', createBody(), { secretId: 'nobody' })).toMatchObject({
        Code: 'AuthFailure.SecretIdNotFound',
      });
      expect(await errorOf('CreateAigcVideoTask', createBody(), { secretKey: 'wrong' })).toMatchObject({
        Code: 'AuthFailure.SignatureFailure',
      });
      expect(
        await errorOf('CreateAigcVideoTask', createBody(), { now: new Date(Date.now() - 301_000) }),
      ).toMatchObject({ Code: 'AuthFailure.SignatureExpire' });
    });

    it('accepts a call signed over the /@ prefixed path, and journals it authenticated', async () => {
      await create({}, { prefix: 'latency=1' });
      const [entry] = (await (await fetch(`${simulator.url}/__sim/requests?limit=1`)).json()) as Array<{
        authenticated: boolean;
        headers: Record<string, string>;
      }>;
      expect(entry.authenticated).toBe(true);
      expect(entry.headers['authorization']).toBe('<redacted>');
    });

    it('leaves POST / without X-Gamma-Action to the beta wire', async () => {
      const body = JSON.stringify({ req_key: 'beta_t2i_v40', prompt: 'a fox' });
      const query = 'Action=CVSync2AsyncSubmitTask&Version=2022-08-31';
      const headers = signedBetaHeaders({
        accessKey: 'sim-beta-ak',
        secretKey: 'sim-beta-sk',
        host,
        path: '/',
        rawQuery: query,
        body,
      });
      delete headers['host'];
      const answer = await postJson(`${simulator.url}/?${query}`, body, headers);
      expect(JSON.parse(answer.text)).toMatchObject({ code: 10000, data: { task_id: expect.any(String) } });
    });
  });
});
