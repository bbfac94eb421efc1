import { imageSize } from 'image-size';
import { solidImage } from '../image-bytes.util';
import { RunningSimulator, startSimulator } from '../server';
import { getBytes, getUrl, postJson } from '../testing/simulator-client.util';

const KEY = 'sim-alpha-key';
const URL_A = 'https://images.example.test/a.png';
const png = (width: number, height: number) =>
  `data:image/png;base64,${solidImage('png', width, height).base64}`;
const gif = `data:image/gif;base64,${Buffer.from('GIF89a\x80\x00\x80\x00\x00\x00\x00', 'latin1').toString('base64')}`;

interface Envelope {
  code: number;
  reason: string;
  message: string;
  metadata: { trace_id: string };
}

describe('alpha official API', () => {
  let simulator: RunningSimulator;

  beforeAll(async () => {
    simulator = await startSimulator({ keys: { alpha: [KEY, 'other-alpha-key'] } });
  });
  afterAll(() => simulator.close());

  const submit = (
    endpoint: string,
    body: unknown,
    options: { key?: string; sim?: string; auth?: string } = {},
  ) =>
    postJson(`${simulator.url}/ent/v2/${endpoint}`, body, {
      authorization: options.auth ?? `Token ${options.key ?? KEY}`,
      ...(options.sim ? { 'x-sim': options.sim } : {}),
    });
  const submitted = async (
    endpoint: string,
    body: unknown,
    sim?: string,
  ): Promise<Record<string, unknown>> => {
    const answer = await submit(endpoint, body, { sim });
    expect(answer.status).toBe(200);
    return JSON.parse(answer.text);
  };
  const creations = async (taskId: unknown, key = KEY) => {
    const answer = await getUrl(`${simulator.url}/ent/v2/tasks/${String(taskId)}/creations`, {
      authorization: `Token ${key}`,
    });
    return { status: answer.status, body: JSON.parse(answer.text) };
  };
  const refusalOf = async (endpoint: string, body: unknown, sim?: string) => {
    const answer = await submit(endpoint, body, { sim });
    return { status: answer.status, ...(JSON.parse(answer.text) as Envelope) };
  };

  describe('auth', () => {
    it.each([
      ['a Bearer header', 'Bearer sim-alpha-key'],
      ['an unknown key', 'Token not-the-key'],
      ['no scheme', 'sim-alpha-key'],
    ])('refuses %s with 401 Unauthorized', async (_, auth) => {
      const answer = await submit('text2video', { model: 'alphaq2-pro', prompt: 'a fox' }, { auth });
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.text)).toMatchObject({ code: 401, reason: 'Unauthorized' });
    });

    it('shows a task to the key that submitted it only', async () => {
      const { task_id: taskId } = await submitted('text2video', { model: 'alphaq2-pro', prompt: 'a fox' });
      expect((await creations(taskId, 'other-alpha-key')).body).toMatchObject({
        code: 404,
        reason: 'TaskNotFound',
      });
      expect((await creations('123456789012345678')).status).toBe(404);
      expect((await creations(taskId)).status).toBe(200);
    });
  });

  describe('submission', () => {
    it('answers text2video with the task as the upstream filled it in', async () => {
      const answer = await submitted('text2video', {
        model: 'alphaq2-pro',
        prompt: 'a fox',
        payload: 'order-7',
      });
      expect(answer).toEqual({
        task_id: expect.stringMatching(/^[1-9]\d{17}$/),
        state: 'created',
        model: 'alphaq2-pro',
        prompt: 'a fox',
        images: [],
        duration: 5,
        seed: expect.any(Number),
        aspect_ratio: '16:9',
        resolution: '720p',
        movement_amplitude: 'auto',
        bgm: false,
        payload: 'order-7',
        off_peak: false,
        credits: 10,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
    });

    it.each([
      ['img2video', { model: 'alphaq1', images: [URL_A] }, { images: [URL_A], resolution: '1080p' }],
      [
        'start-end2video',
        { model: 'alpha2.0', images: [URL_A, png(200, 200)] },
        { duration: 5, resolution: '720p' },
      ],
      [
        'reference2video',
        {
          model: 'alphaq2',
          subjects: [{ id: 'cat', images: [URL_A, png(300, 200)], voice_id: 'v1' }],
          duration: 10,
        },
        {
          model: 'alphaq2',
          subjects: [{ id: 'cat', images: [URL_A, png(300, 200)], voice_id: 'v1' }],
          duration: 10,
        },
      ],
      [
        'reference2video',
        { model: 'alphaq3-pro', images: [URL_A], duration: 16 },
        { images: [URL_A], duration: 16 },
      ],
    ])('accepts %s', async (endpoint, body, expected) => {
      expect(await submitted(endpoint, body)).toMatchObject({ state: 'created', ...expected });
    });

    it.each([
      ['text2video', { prompt: 'a fox' }, 'FieldLacking', 'model is required'],
      ['text2video', { model: 'alphaq2-pro' }, 'FieldLacking', 'prompt is required'],
      ['text2video', { model: 'alphaq2', prompt: 'a fox' }, 'ModelUnavailable', 'alphaq2 is not available'],
      [
        'reference2video',
        { model: 'alphaq2-pro', images: [URL_A] },
        'ModelUnavailable',
        'not available on reference2video',
      ],
      ['text2video', { model: 'alphaq2-pro', prompt: 'a fox', images: [URL_A] }, 'FieldUnwanted', 'images'],
      [
        'img2video',
        { model: 'alphaq2-pro', images: [URL_A, URL_A] },
        'FieldItemCountOutOfRange',
        'exactly 1',
      ],
      ['start-end2video', { model: 'alphaq2-pro', images: [URL_A] }, 'FieldItemCountOutOfRange', 'exactly 2'],
      [
        'img2video',
        { model: 'alphaq2-pro', images: [URL_A], aspect_ratio: '1:1' },
        'FieldUnwanted',
        'aspect_ratio',
      ],
      ['img2video', { model: 'alphaq1', images: [URL_A], style: 'anime' }, 'FieldUnwanted', 'style'],
      [
        'reference2video',
        { model: 'alphaq2', subjects: [{ id: 'cat', images: [URL_A, URL_A, URL_A, URL_A] }] },
        'FieldItemCountOutOfRange',
        'subjects[0].images must hold 1 to 3',
      ],
      [
        'reference2video',
        { model: 'alphaq3-pro', images: Array.from({ length: 8 }, () => URL_A) },
        'FieldItemCountOutOfRange',
        '1 to 7',
      ],
      ['img2video', { model: 'alphaq2-pro', images: [gif] }, 'ImageFormatInvalid', 'images[0]'],
      ['img2video', { model: 'alphaq2-pro', images: ['iVBORw0KGgo='] }, 'ImageFormatInvalid', 'data:image'],
      [
        'img2video',
        { model: 'alphaq2-pro', images: [png(127, 127)] },
        'FieldInvalid',
        'smaller than 128x128',
      ],
      ['img2video', { model: 'alphaq2-pro', images: [png(128, 640)] }, 'FieldInvalid', '1:4 to 4:1'],
      [
        'text2video',
        { model: 'alphaq2-pro', prompt: 'a fox', duration: 11 },
        'FieldInvalid',
        'duration must be 1 to 10',
      ],
      [
        'text2video',
        { model: 'alphaq1', prompt: 'a fox', duration: 10 },
        'FieldInvalid',
        'duration must be 5',
      ],
      [
        'text2video',
        { model: 'alphaq1', prompt: 'a fox', resolution: '720p' },
        'FieldInvalid',
        'resolution must be one of 1080p',
      ],
      [
        'text2video',
        { model: 'alphaq1', prompt: 'a fox', aspect_ratio: '4:3' },
        'FieldInvalid',
        'aspect_ratio',
      ],
      ['text2video', { model: 'alphaq2-pro', prompt: 'a fox', audio: true }, 'FieldInvalid', 'q3'],
      ['text2video', { model: 'alphaq2-pro', prompt: 'x'.repeat(5001) }, 'FieldInvalid', '5000'],
      [
        'text2video',
        { model: 'alphaq2-pro', prompt: 'a fox', wm_position: 5 },
        'FieldInvalid',
        'wm_position',
      ],
      ['text2video', { model: 'alphaq2-pro', prompt: 'a fox', meta_data: '{' }, 'FieldInvalid', 'meta_data'],
      ['text2video', { model: 'alphaq2-pro', prompt: 'a fox', seed: 1.5 }, 'FieldInvalid', 'seed'],
    ])('refuses on %s: %j', async (endpoint, body, reason, rule) => {
      const refusal = await refusalOf(endpoint, body);
      expect(refusal).toMatchObject({
        status: 400,
        code: 400,
        reason,
        message: expect.stringContaining(rule),
      });
      expect(refusal.metadata.trace_id).toMatch(/^[a-z0-9]{32}$/);
    });

    it('takes a body of exactly 20 MB and refuses one byte more with 413', async () => {
      const header = solidImage('png', 256, 256).bytes;
      // Base64 grows bytes by 4/3: an image whose text leaves a few thousand characters for the prompt.
      const padding = Math.floor(((20 * 1024 * 1024 - 4000) * 3) / 4) - header.length;
      const image = `data:image/png;base64,${Buffer.concat([header, Buffer.alloc(padding)]).toString('base64')}`;
      const bodyOf = (prompt: string) => JSON.stringify({ model: 'alphaq3-pro', images: [image], prompt });
      const room = 20 * 1024 * 1024 - bodyOf('').length;
      expect(room).toBeGreaterThan(0);
      expect(room).toBeLessThan(5000);
      const atLimit = await submit('reference2video', bodyOf('p'.repeat(room)));
      expect({ status: atLimit.status, text: atLimit.status === 200 ? '' : atLimit.text }).toEqual({
        status: 200,
        text: '',
      });
      expect(await refusalOf('reference2video', bodyOf('p'.repeat(room + 1)))).toMatchObject({
        status: 413,
        reason: 'BadRequest',
        message: 'the request body exceeds 20 MB',
      });
    });

    it('refuses a body that is not JSON', async () => {
      expect(await refusalOf('text2video', '{"model":')).toMatchObject({ status: 400, reason: 'BadRequest' });
    });
  });

  describe('task lifecycle', () => {
    it('goes queueing, processing, success, with links to a video, its cover and a watermarked copy', async () => {
      const { task_id: taskId } = await submitted(
        'text2video',
        { model: 'alphaq2-pro', prompt: 'a fox', resolution: '720p', aspect_ratio: '9:16' },
        'polls=2',
      );
      expect((await creations(taskId)).body).toMatchObject({ id: taskId, state: 'queueing', creations: [] });
      expect((await creations(taskId)).body).toMatchObject({ state: 'processing', err_code: '' });
      const done = (await creations(taskId)).body;
      expect(done).toMatchObject({
        id: taskId,
        state: 'success',
        err_code: '',
        credits: 10,
        creations: [expect.any(Object)],
      });
      const [creation] = done.creations;
      expect(creation.id).toMatch(/^\d{18}$/);
      const video = await getBytes(creation.url);
      expect(video).toMatchObject({ status: 200, contentType: 'video/mp4' });
      expect(video.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
      const cover = await getBytes(creation.cover_url);
      expect(imageSize(cover.bytes)).toMatchObject({ type: 'jpg', width: 720, height: 1280 });
      expect((await getBytes(creation.watermarked_url)).contentType).toBe('video/mp4');
    });

    it.each([
      ['error=content_policy;error_after=1', 'CreationPolicyViolation'],
      ['error=overload;error_after=1', 'InternalServiceFailure'],
      ['error=insufficient_balance;error_after=1', 'CreditInsufficient'],
      ['error=bad_request;error_after=1;code=ImageDownloadFailure', 'ImageDownloadFailure'],
      ['block=output', 'CreationPolicyViolation'],
      ['finish=failed;code=UserCancelled', 'UserCancelled'],
      ['finish=failed', 'InternalServiceFailure'],
    ])('fails a task scripted with %s, err_code %s', async (sim, errCode) => {
      const { task_id: taskId } = await submitted(
        'text2video',
        { model: 'alphaq2-pro', prompt: 'a fox' },
        sim,
      );
      if (sim.includes('error_after=1')) expect((await creations(taskId)).body.state).toBe('queueing');
      expect((await creations(taskId)).body).toMatchObject({
        state: 'failed',
        err_code: errCode,
        credits: 0,
        creations: [],
      });
    });

    it('answers a state word outside the table when finish= names one', async () => {
      const { task_id: taskId } = await submitted(
        'text2video',
        { model: 'alphaq2-pro', prompt: 'a fox' },
        'finish=paused',
      );
      expect((await creations(taskId)).body.state).toBe('paused');
      expect((await creations(taskId)).body.state).toBe('paused');
    });

    it('hands out links already expired for url_ttl=0, and a live one after expired_links=1', async () => {
      const expiring = await submitted('text2video', { model: 'alphaq2-pro', prompt: 'a fox' }, 'url_ttl=0');
      const [dead] = (await creations(expiring.task_id)).body.creations;
      expect((await getBytes(dead.url)).status).toBe(403);
      const refreshed = await submitted(
        'text2video',
        { model: 'alphaq2-pro', prompt: 'a fox' },
        'expired_links=1',
      );
      const [first] = (await creations(refreshed.task_id)).body.creations;
      const [second] = (await creations(refreshed.task_id)).body.creations;
      expect((await getBytes(first.url)).status).toBe(403);
      expect((await getBytes(second.url)).status).toBe(200);
      expect(second.id).toBe(first.id);
    });

    it('keeps a task pending until task_ms has passed', async () => {
      const { task_id: taskId } = await submitted(
        'text2video',
        { model: 'alphaq2-pro', prompt: 'a fox' },
        'task_ms=60000',
      );
      expect((await creations(taskId)).body.state).toBe('queueing');
      expect((await creations(taskId)).body.state).toBe('processing');
    });
  });

  describe('scripted errors', () => {
    it.each([
      ['error=rate_limit', 429, 'TooManyRequests'],
      ['error=rate_limit;code=QuotaExceeded', 429, 'QuotaExceeded'],
      ['error=rate_limit;code=OperationInProcess', 400, 'OperationInProcess'],
      ['error=overload', 500, 'InternalServiceFailure'],
      ['error=overload;status=503', 503, 'InternalServiceFailure'],
      ['error=auth', 401, 'Unauthorized'],
      ['error=auth;status=403', 403, 'Forbidden'],
      ['error=bad_request', 400, 'BadRequest'],
      ['error=bad_request;code=FieldInvalid', 400, 'FieldInvalid'],
      ['error=bad_request;status=409', 409, 'Conflict'],
      ['error=content_policy', 400, 'TaskPromptPolicyViolation'],
      ['error=content_policy;code=AuditSubmitIllegal', 400, 'AuditSubmitIllegal'],
      ['error=insufficient_balance', 400, 'CreditInsufficient'],
      ['block=prompt', 400, 'TaskPromptPolicyViolation'],
      ['hang=20', 504, 'InternalServiceFailure'],
    ])('answers a submission scripted with %s: %i %s', async (sim, status, reason) => {
      expect(await refusalOf('text2video', { model: 'alphaq2-pro', prompt: 'a fox' }, sim)).toMatchObject({
        status,
        code: status,
        reason,
      });
    });

    it('adds Retry-After, and scripts a query as well as a submission', async () => {
      const limited = await submit(
        'text2video',
        { model: 'alphaq2-pro', prompt: 'a fox' },
        { sim: 'error=rate_limit;retry_after=4' },
      );
      expect(limited.headers.get('retry-after')).toBe('4');
      const { task_id: taskId } = await submitted('text2video', { model: 'alphaq2-pro', prompt: 'a fox' });
      const query = await getUrl(`${simulator.url}/ent/v2/tasks/${String(taskId)}/creations`, {
        authorization: `Token ${KEY}`,
        'x-sim': 'error=bad_request;status=404',
      });
      expect(query.status).toBe(404);
      expect(JSON.parse(query.text)).toMatchObject({ reason: 'TaskNotFound' });
    });

    it('plays directives from the base-URL prefix, as a channel row scripts them', async () => {
      const answer = await postJson(
        `${simulator.url}/@error=insufficient_balance/ent/v2/text2video`,
        { model: 'alphaq2-pro', prompt: 'a fox' },
        { authorization: `Token ${KEY}` },
      );
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text).reason).toBe('CreditInsufficient');
    });
  });

  it('journals what it received, with the key redacted', async () => {
    await submitted('img2video', { model: 'alphaq2-pro', images: [URL_A], seed: 9 });
    const [entry] = JSON.parse((await getUrl(`${simulator.url}/__sim/requests?limit=1`)).text);
    expect(entry).toMatchObject({ method: 'POST', path: '/ent/v2/img2video', authenticated: true });
    expect(entry.headers.authorization).toBe('<redacted>');
    expect(JSON.parse(entry.body)).toEqual({ model: 'alphaq2-pro', images: [URL_A], seed: 9 });
  });
});
