import { imageSize } from 'image-size';
import { solidImage } from '../image-bytes.util';
import { RunningSimulator, startSimulator } from '../server';
import { postSignedBetaCall } from '../testing/beta-request-signer.util';
import { getBytes, parseJson, postJson, simulatorStats } from '../testing/simulator-client.util';

const SUBMIT = 'Action=CVSync2AsyncSubmitTask&Version=2022-08-31';
const GET_RESULT = 'Action=CVSync2AsyncGetResult&Version=2022-08-31';
const REQ_KEY = 'beta_t2i_v40';

interface CallOptions {
  accessKey?: string;
  secretKey?: string;
  now?: Date;
  /** A `/@…` prefix; the signature covers the path as sent. */
  prefix?: string;
  directives?: string;
  /** Sent after signing, to tamper with the body. */
  sentBody?: string;
}

interface Envelope {
  code: number;
  status: number;
  message: string;
  request_id: string;
  time_elapsed: string;
  data: Record<string, unknown> | null;
}

describe('beta Action API', () => {
  let simulator: RunningSimulator;

  const signedCall = (query: string, body: unknown, options: CallOptions = {}) =>
    postSignedBetaCall(
      simulator.url,
      {
        accessKey: options.accessKey ?? 'sim-beta-ak',
        secretKey: options.secretKey ?? 'sim-beta-sk',
        path: options.prefix ? `/@${options.prefix}/` : '/',
        rawQuery: query,
        body: JSON.stringify(body),
        now: options.now,
      },
      options,
    );
  const envelopeOf = (text: string) => JSON.parse(text) as Envelope;
  const submit = async (body: Record<string, unknown> = {}, options: CallOptions = {}): Promise<string> => {
    const result = await signedCall(SUBMIT, { req_key: REQ_KEY, prompt: 'a red fox', ...body }, options);
    expect(result.status).toBe(200);
    return String(envelopeOf(result.text).data?.['task_id']);
  };
  const result = (taskId: string, reqJson?: unknown, options: CallOptions = {}) =>
    signedCall(
      GET_RESULT,
      { req_key: REQ_KEY, task_id: taskId, ...(reqJson === undefined ? {} : { req_json: reqJson }) },
      options,
    );
  const dataOf = async (taskId: string, reqJson?: unknown) => {
    const answer = await result(taskId, reqJson);
    expect(answer.status).toBe(200);
    return envelopeOf(answer.text).data ?? {};
  };

  beforeAll(async () => {
    simulator = await startSimulator({
      keys: { beta: ['sim-beta-ak|sim-beta-sk', 'other-ak|other-sk', 'sk-relay-key'] },
    });
  });
  afterAll(() => simulator.close());

  it('submits in the success envelope and returns the image when done', async () => {
    const answer = await signedCall(SUBMIT, { req_key: REQ_KEY, prompt: 'a red fox' });
    expect(envelopeOf(answer.text)).toEqual({
      code: 10000,
      status: 10000,
      message: 'Success',
      request_id: expect.stringMatching(/^\d{14}[A-Z0-9]{18}$/),
      time_elapsed: expect.stringMatching(/^\d+\.\d+ms$/),
      data: { task_id: expect.stringMatching(/^[1-9]\d{18}$/) },
    });
    const taskId = String(envelopeOf(answer.text).data?.['task_id']);
    const data = await dataOf(taskId);
    expect(data).toEqual({ status: 'done', binary_data_base64: [expect.any(String)], image_urls: null });
    const images = data['binary_data_base64'] as string[];
    expect(imageSize(Buffer.from(images[0], 'base64'))).toMatchObject({ width: 2048, height: 2048 });
  });

  it('returns URLs when req_json asks for them, the same on every later query', async () => {
    const taskId = await submit({ width: 2560, height: 1440 }, { directives: 'images=2' });
    const reqJson = JSON.stringify({ return_url: true, logo_info: { add_logo: false } });
    const data = await dataOf(taskId, reqJson);
    const urls = data['image_urls'] as string[];
    expect(urls).toHaveLength(2);
    expect(imageSize((await getBytes(urls[0])).bytes)).toMatchObject({ width: 2560, height: 1440 });
    expect((await dataOf(taskId, reqJson))['image_urls']).toEqual(urls);
  });

  it('turns the pixel area size into a square and force_single into one image', async () => {
    const taskId = await submit({ size: 1024 * 1024, force_single: true }, { directives: 'images=3' });
    const images = (await dataOf(taskId))['binary_data_base64'] as string[];
    expect(images).toHaveLength(1);
    expect(imageSize(Buffer.from(images[0], 'base64'))).toMatchObject({ width: 1024, height: 1024 });
  });

  it('walks in_queue → generating → done over the scripted polls', async () => {
    const taskId = await submit({}, { directives: 'polls=2' });
    const statuses = [];
    for (let query = 0; query < 3; query += 1) statuses.push((await dataOf(taskId))['status']);
    expect(statuses).toEqual(['in_queue', 'generating', 'done']);
  });

  it('ends in the scripted terminal status (finish=expired)', async () => {
    expect((await dataOf(await submit({}, { directives: 'finish=expired' })))['status']).toBe('expired');
  });

  it('fails a task after error_after pending answers, in the business envelope with data null', async () => {
    const taskId = await submit({}, { directives: 'error=overload;error_after=1' });
    expect((await dataOf(taskId))['status']).toBe('in_queue');
    const failed = await result(taskId);
    expect(failed.status).toBe(500);
    expect(envelopeOf(failed.text)).toMatchObject({
      code: 50500,
      status: 50500,
      message: 'Internal Error',
      data: null,
    });
  });

  it('rejects the output image under block=output (50511) and the prompt under block=prompt (50412)', async () => {
    const blocked = await result(await submit({}, { directives: 'block=output' }));
    expect(blocked.status).toBe(400);
    expect(envelopeOf(blocked.text)).toMatchObject({
      code: 50511,
      message: 'Post Img Risk Not Pass',
      data: null,
    });
    const prompt = await signedCall(SUBMIT, { req_key: REQ_KEY, prompt: 'x [[sim block=prompt]]' });
    expect(prompt.status).toBe(400);
    expect(envelopeOf(prompt.text)).toMatchObject({ code: 50412, message: 'Text Risk Not Pass' });
    const image = await signedCall(
      SUBMIT,
      { req_key: REQ_KEY, prompt: 'x' },
      { directives: 'block=prompt;code=50411' },
    );
    expect(envelopeOf(image.text)).toMatchObject({ code: 50411 });
  });

  it('answers not_found for an unknown id and for another account’s task', async () => {
    expect((await dataOf('1234567890123456789'))['status']).toBe('not_found');
    const taskId = await submit();
    const foreign = await signedCall(
      GET_RESULT,
      { req_key: REQ_KEY, task_id: taskId },
      { accessKey: 'other-ak', secretKey: 'other-sk' },
    );
    expect(envelopeOf(foreign.text).data).toEqual({ status: 'not_found' });
  });

  describe('the §4.2 verifier over HTTP', () => {
    const expectSignatureFailure = async (answer: { status: number; text: string }) => {
      expect(answer.status).toBe(401);
      expect(parseJson(answer.text)).toEqual({
        ResponseMetadata: {
          RequestId: expect.any(String),
          Action: 'CVSync2AsyncSubmitTask',
          Version: '2022-08-31',
          Service: 'cv',
          Region: 'cn-north-1',
          Error: { Code: 'SignatureDoesNotMatch', Message: expect.any(String) },
        },
      });
    };
    const body = { req_key: REQ_KEY, prompt: 'a red fox' };

    it('refuses an unknown access key', async () => {
      await expectSignatureFailure(await signedCall(SUBMIT, body, { accessKey: 'nobody' }));
    });

    it('refuses a wrong secret', async () => {
      await expectSignatureFailure(await signedCall(SUBMIT, body, { secretKey: 'not-the-secret' }));
    });

    it('refuses a tampered body', async () => {
      await expectSignatureFailure(
        await signedCall(SUBMIT, body, { sentBody: JSON.stringify({ ...body, prompt: 'a cat' }) }),
      );
    });

    it('refuses a clock skew of 16 minutes and accepts one of 14', async () => {
      await expectSignatureFailure(
        await signedCall(SUBMIT, body, { now: new Date(Date.now() - 16 * 60 * 1000) }),
      );
      expect((await signedCall(SUBMIT, body, { now: new Date(Date.now() + 14 * 60 * 1000) })).status).toBe(
        200,
      );
    });

    it('refuses a missing signature and a Bearer key on the signed path', async () => {
      await expectSignatureFailure(await postJson(`${simulator.url}/?${SUBMIT}`, body));
      await expectSignatureFailure(
        await postJson(`${simulator.url}/?${SUBMIT}`, body, { authorization: 'Bearer sk-relay-key' }),
      );
    });

    it('accepts a signature over a base URL with a /@ directive prefix, and plays its directives', async () => {
      const taskId = await submit({}, { prefix: 'polls=1' });
      expect((await dataOf(taskId))['status']).toBe('in_queue');
    });
  });

  describe('the relay form on /bt', () => {
    const relay = (query: string, body: unknown, key = 'sk-relay-key') =>
      postJson(`${simulator.url}/bt?${query}`, body, { authorization: `Bearer ${key}` });

    it('takes a Bearer sk- key without signature, and keeps its tasks to itself', async () => {
      const submitted = await relay(SUBMIT, { req_key: REQ_KEY, prompt: 'x' });
      expect(submitted.status).toBe(200);
      const taskId = String(envelopeOf(submitted.text).data?.['task_id']);
      const queried = await relay(GET_RESULT, { req_key: REQ_KEY, task_id: taskId });
      expect(envelopeOf(queried.text).data).toMatchObject({ status: 'done' });
      expect((await dataOf(taskId))['status']).toBe('not_found');
    });

    it('refuses a wrong relay key and a signed call with 401 in the ResponseMetadata envelope', async () => {
      const wrong = await relay(SUBMIT, { req_key: REQ_KEY, prompt: 'x' }, 'sk-wrong');
      expect(wrong.status).toBe(401);
      expect(parseJson(wrong.text)).toMatchObject({
        ResponseMetadata: { Error: { Code: 'InvalidAuthorization' } },
      });
      const signed = await postSignedBetaCall(simulator.url, {
        accessKey: 'sim-beta-ak',
        secretKey: 'sim-beta-sk',
        path: '/bt',
        rawQuery: SUBMIT,
        body: '{}',
      });
      expect(signed.status).toBe(401);
    });
  });

  describe('refusals', () => {
    const image = solidImage('png', 8, 8).base64;

    it.each([
      ['an unknown req_key', { req_key: 'beta_t2i_v99', prompt: 'x' }],
      ['a video req_key outside the table', { req_key: 'beta_t2v_v99', prompt: 'x' }],
      ['no prompt and no image', { req_key: REQ_KEY }],
      ['a prompt over 800 characters', { req_key: REQ_KEY, prompt: 'p'.repeat(801) }],
      [
        'image_urls and binary_data_base64 together',
        { req_key: REQ_KEY, image_urls: ['https://a.test/x.png'], binary_data_base64: [image] },
      ],
      ['11 image_urls', { req_key: REQ_KEY, image_urls: Array(11).fill('https://a.test/x.png') }],
      ['an image_url that is no URL', { req_key: REQ_KEY, image_urls: ['x.png'] }],
      [
        'Base64 with a data: prefix',
        { req_key: REQ_KEY, binary_data_base64: [`data:image/png;base64,${image}`] },
      ],
      ['Base64 that is no image', { req_key: REQ_KEY, binary_data_base64: ['aGVsbG8='] }],
      ['a size under 1024²', { req_key: REQ_KEY, prompt: 'x', size: 1_000_000 }],
      ['a size over 4096²', { req_key: REQ_KEY, prompt: 'x', size: 4097 * 4096 }],
      ['width without height', { req_key: REQ_KEY, prompt: 'x', width: 2048 }],
      ['an aspect over 16:1', { req_key: REQ_KEY, prompt: 'x', width: 17 * 1024, height: 1024 }],
      ['scale over 1', { req_key: REQ_KEY, prompt: 'x', scale: 1.5 }],
      ['force_single as text', { req_key: REQ_KEY, prompt: 'x', force_single: 'true' }],
    ])('refuses %s with 400 50205 Invalid Param', async (_case, body) => {
      const answer = await signedCall(SUBMIT, body);
      expect(answer.status).toBe(400);
      expect(envelopeOf(answer.text)).toMatchObject({ code: 50205, message: 'Invalid Param', data: null });
    });

    it('accepts references alone (image to image)', async () => {
      expect((await signedCall(SUBMIT, { req_key: REQ_KEY, binary_data_base64: [image] })).status).toBe(200);
      expect(
        (await signedCall(SUBMIT, { req_key: 'beta_t2i_v45', image_urls: ['https://a.test/x.png'] })).status,
      ).toBe(200);
    });

    it.each([
      [
        'req_json as an object',
        (taskId: string) => ({ req_key: REQ_KEY, task_id: taskId, req_json: { return_url: true } }),
      ],
      [
        'req_json that is no JSON',
        (taskId: string) => ({ req_key: REQ_KEY, task_id: taskId, req_json: '{return_url' }),
      ],
      [
        'another req_key than the submission',
        (taskId: string) => ({ req_key: 'beta_t2i_v45', task_id: taskId }),
      ],
      ['no task_id', () => ({ req_key: REQ_KEY })],
    ])('refuses a query with %s', async (_case, bodyOf) => {
      const answer = await signedCall(GET_RESULT, bodyOf(await submit()));
      expect(answer.status).toBe(400);
      expect(envelopeOf(answer.text)).toMatchObject({ code: 50205 });
      expect(answer.headers.get('x-sim-reason')).toBeTruthy();
    });

    it.each([
      ['an unknown Action', 'Action=CVSync2AsyncCancel&Version=2022-08-31'],
      ['another Version', 'Action=CVSync2AsyncSubmitTask&Version=2024-01-01'],
      ['no Action', 'Version=2022-08-31'],
    ])('answers %s with 400 InvalidActionOrVersion', async (_case, query) => {
      const answer = await signedCall(query, { req_key: REQ_KEY, prompt: 'x' });
      expect(answer.status).toBe(400);
      expect(parseJson(answer.text)).toMatchObject({
        ResponseMetadata: { Error: { Code: 'InvalidActionOrVersion' } },
      });
    });
  });

  describe('scripted error classes', () => {
    it.each([
      ['error=rate_limit', 429, 50429],
      ['error=rate_limit;code=50430', 429, 50430],
      ['error=overload', 500, 50500],
      ['error=overload;code=50501', 500, 50501],
      ['error=overload;code=50520', 400, 50520],
      ['error=insufficient_balance', 400, 50400],
      ['error=auth;code=50400', 400, 50400],
      ['error=bad_request', 400, 50205],
      ['error=content_policy', 400, 50412],
      ['error=content_policy;code=50413', 400, 50413],
      ['hang=50', 504, 50500],
    ])('submission with %s → %i code %i', async (directives, status, code) => {
      const answer = await signedCall(SUBMIT, { req_key: REQ_KEY, prompt: 'x' }, { directives });
      expect(answer.status).toBe(status);
      expect(envelopeOf(answer.text)).toMatchObject({ code, data: null });
    });

    it('scripts auth as the 401 envelope, and content_policy on a query as an output risk', async () => {
      const auth = await signedCall(SUBMIT, { req_key: REQ_KEY, prompt: 'x' }, { directives: 'error=auth' });
      expect(auth.status).toBe(401);
      expect(parseJson(auth.text)).toMatchObject({
        ResponseMetadata: { Error: { Code: 'SignatureDoesNotMatch' } },
      });
      const query = await result(await submit(), undefined, { directives: 'error=content_policy' });
      expect(envelopeOf(query.text)).toMatchObject({ code: 50511 });
    });

    it('adds Retry-After when scripted', async () => {
      const answer = await signedCall(
        SUBMIT,
        { req_key: REQ_KEY, prompt: 'x' },
        { directives: 'error=rate_limit;retry_after=9' },
      );
      expect(answer.headers.get('retry-after')).toBe('9');
    });
  });

  it('counts submissions and queries by action', async () => {
    await postJson(`${simulator.url}/__sim/reset`, {});
    await result(await submit());
    await signedCall('Action=Other&Version=2022-08-31', {});
    expect((await simulatorStats(simulator.url)).byRoute).toEqual({
      'beta:submitTask': 1,
      'beta:getResult': 1,
      'beta:unknownAction': 1,
    });
  });
});
