import { solidImage } from '../../image-bytes.util';
import { JournalEntry } from '../../request-journal';
import { RunningSimulator, startSimulator } from '../../server';
import { getUrl, parseJson, postForm, postJson } from '../../testing/simulator-client.util';
import { simulatedMp4 } from './compat-video-bytes.util';

const AUTH = { authorization: 'Bearer sim-compat-key' };

function formOf(
  fields: Record<string, string>,
  files: Array<{ field: string; bytes: Buffer; type?: string }>,
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const { field, bytes, type } of files) {
    form.append(field, new Blob([new Uint8Array(bytes)], { type: type ?? 'image/png' }), `${field}.bin`);
  }
  return form;
}

const png = (width: number, height: number) => solidImage('png', width, height).bytes;
const dataUri = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

describe('compat video create (upstreams.md §2.4)', () => {
  let simulator: RunningSimulator;
  const create = (body: unknown, headers: Record<string, string> = AUTH) =>
    postJson(`${simulator.url}/v1/videos`, body, headers);
  const createForm = (fields: Record<string, string>, files: Parameters<typeof formOf>[1] = []) =>
    postForm(`${simulator.url}/v1/videos`, formOf(fields, files), AUTH);
  const errorOf = (text: string) => (parseJson(text) as { error: Record<string, unknown> }).error;

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(() => simulator.close());

  it('answers a JSON create with a queued video object, the family defaults filled in', async () => {
    const result = await create({ model: 'delta-2', prompt: 'a fox in snow' });
    expect(result.status).toBe(200);
    expect(parseJson(result.text)).toEqual({
      id: expect.stringMatching(/^video_[A-Za-z0-9]{24}$/),
      object: 'video',
      model: 'delta-2',
      status: 'queued',
      progress: 0,
      created_at: expect.any(Number),
      completed_at: null,
      expires_at: null,
      prompt: 'a fox in snow',
      seconds: '4',
      size: '720x1280',
      remixed_from_video_id: null,
      error: null,
    });
  });

  it('defaults the model to delta-2, as the first-party upstream does', async () => {
    expect(parseJson((await create({ prompt: 'x' })).text)).toMatchObject({ model: 'delta-2' });
  });

  it.each([
    [{ model: 'delta-2', prompt: 'x', seconds: '6' }, 'seconds'],
    [{ model: 'delta-2', prompt: 'x', size: '1792x1024' }, 'size'],
    [{ model: 'epsilon_3_1', prompt: 'x', seconds: '10' }, 'seconds'],
    [{ model: 'epsilon_3_1', prompt: 'x', size: '1920x1080', seconds: '4' }, 'seconds'],
    [
      { model: 'epsilon_3_1', prompt: 'x', seconds: '4', images: ['https://img.example.test/a.png'] },
      'seconds',
    ],
    [{ model: 'epsilon_3_1-extend', prompt: 'x', seconds: '4' }, 'seconds'],
    [{ model: 'epsilon_3_1-extend', prompt: 'x', seconds: '8', size: '1920x1080' }, 'size'],
    [{ model: 'nu-1', prompt: 'x', seconds: 'five' }, 'seconds'],
    [{ model: 'delta-2', prompt: 'x', seconds: 8 }, 'seconds'],
    [{ model: 'delta-2' }, 'prompt'],
    [{ model: 'delta-2', prompt: 'x', images: ['data:image/png;base64,not base64!'] }, 'images'],
  ])('refuses %j naming %s', async (body, param) => {
    const result = await create(body);
    expect(result.status).toBe(400);
    expect(errorOf(result.text)).toMatchObject({ param, type: 'invalid_request_error' });
  });

  it('takes the sizes and seconds each family lists', async () => {
    for (const body of [
      { model: 'delta-2-pro', prompt: 'x', size: '1792x1024', seconds: '12' },
      { model: 'epsilon_3_1', prompt: 'x', size: '3840x2160', seconds: '8' },
      { model: 'epsilon_3_1-fast', prompt: 'x', size: '720x1280', seconds: '6' },
      { model: 'xi-2', prompt: 'x', size: '960x960', seconds: '7' },
    ]) {
      const result = await create(body);
      expect(result.status).toBe(200);
      expect(parseJson(result.text)).toMatchObject({ size: body.size, seconds: body.seconds });
    }
  });

  it('refuses a model starting unknown- with 404 model_not_found', async () => {
    const result = await create({ model: 'unknown-video', prompt: 'x' });
    expect(result.status).toBe(404);
    expect(errorOf(result.text)).toMatchObject({ code: 'model_not_found' });
  });

  it('requires delta input images to have the requested size', async () => {
    const ok = await create({
      model: 'delta-2',
      prompt: 'x',
      size: '1280x720',
      input_reference: { image_url: dataUri(png(1280, 720)) },
    });
    expect(ok.status).toBe(200);
    const wrong = await createForm({ model: 'delta-2', prompt: 'x' }, [
      { field: 'input_reference', bytes: png(64, 64) },
    ]);
    expect(wrong.status).toBe(400);
    expect(errorOf(wrong.text)).toMatchObject({ param: 'input_reference' });
    expect(errorOf(wrong.text).message).toContain('720x1280');
  });

  describe('zeta-video-*', () => {
    it('creates from multipart only', async () => {
      const json = await create({ model: 'zeta-video-3', prompt: 'x' });
      expect(json.status).toBe(400);
      expect(errorOf(json.text).message).toContain('multipart');
      const form = await createForm({
        model: 'zeta-video-3',
        prompt: 'x',
        size: '1080p',
        aspect_ratio: '3:2',
      });
      expect(form.status).toBe(200);
      expect(parseJson(form.text)).toMatchObject({ seconds: '6', size: '1080P' });
    });

    it('takes up to 6 input_reference images and journals them', async () => {
      const files = Array.from({ length: 2 }, () => ({ field: 'input_reference', bytes: png(32, 48) }));
      expect((await createForm({ model: 'zeta-video-3', prompt: 'first and last' }, files)).status).toBe(200);
      const [entry] = JSON.parse(
        (await getUrl(`${simulator.url}/__sim/requests?limit=1`)).text,
      ) as JournalEntry[];
      expect(entry.form?.files.map((file) => file.field)).toEqual(['input_reference', 'input_reference']);
      const seven = Array.from({ length: 7 }, () => ({ field: 'input_reference', bytes: png(32, 48) }));
      const refused = await createForm({ model: 'zeta-video-3', prompt: 'x' }, seven);
      expect(refused.status).toBe(400);
      expect(errorOf(refused.text)).toMatchObject({ param: 'input_reference' });
    });

    it('silently corrects the fixed durations of -pro (10 s) and -max (15 s)', async () => {
      const pro = await createForm({ model: 'zeta-video-3-pro', prompt: 'x', seconds: '6' });
      const max = await createForm({ model: 'zeta-video-3-max', prompt: 'x' });
      expect(parseJson(pro.text)).toMatchObject({ seconds: '10' });
      expect(parseJson(max.text)).toMatchObject({ seconds: '15' });
    });

    it('refuses an aspect ratio outside 2:3, 3:2, 1:1 and a non-image file', async () => {
      const ratio = await createForm({ model: 'zeta-video-3', prompt: 'x', aspect_ratio: '16:9' });
      expect(errorOf(ratio.text)).toMatchObject({ param: 'aspect_ratio' });
      const text = await createForm({ model: 'zeta-video-3', prompt: 'x' }, [
        { field: 'input_reference', bytes: Buffer.from('hello'), type: 'text/plain' },
      ]);
      expect(errorOf(text.text)).toMatchObject({ param: 'input_reference' });
    });
  });

  describe('failures at create', () => {
    it.each([
      ['rate_limit', 429, 'rate_limit_exceeded'],
      ['overload', 503, 'server_is_overloaded'],
      ['auth', 401, 'invalid_api_key'],
      ['bad_request', 400, 'invalid_value'],
      ['content_policy', 400, 'content_policy_violation'],
      ['insufficient_balance', 429, 'insufficient_quota'],
    ])('answers error=%s with HTTP %s %s and makes no video', async (errorClass, status, code) => {
      await postJson(`${simulator.url}/__sim/reset`, {});
      const result = await create({ model: 'delta-2', prompt: `x [[sim error=${errorClass}]]` });
      expect(result.status).toBe(status);
      expect(errorOf(result.text)).toMatchObject({ code });
      const stats = parseJson((await getUrl(`${simulator.url}/__sim/stats`)).text);
      expect(stats['videos']).toMatchObject({ created: 0 });
    });

    it('refuses a blocked prompt: moderation_blocked on delta, content_policy_violation on relays', async () => {
      const delta = await create({ model: 'delta-2', prompt: 'x' }, { ...AUTH, 'x-sim': 'block=prompt' });
      expect(delta.status).toBe(400);
      expect(errorOf(delta.text)).toMatchObject({ code: 'moderation_blocked' });
      const relay = await create({ model: 'epsilon_3_1', prompt: 'x [[sim block=prompt]]' });
      expect(errorOf(relay.text)).toMatchObject({ code: 'content_policy_violation' });
      const picked = await create({
        model: 'delta-2',
        prompt: 'x [[sim block=prompt, code=content_policy_violation]]',
      });
      expect(errorOf(picked.text)).toMatchObject({ code: 'content_policy_violation' });
    });

    it('refuses a missing key with 401', async () => {
      expect((await create({ prompt: 'x' }, {})).status).toBe(401);
    });
  });

  describe('characters', () => {
    const createCharacter = (fields: Record<string, string>, bytes?: Buffer) =>
      postForm(
        `${simulator.url}/v1/videos/characters`,
        formOf(fields, bytes ? [{ field: 'video', bytes, type: 'video/mp4' }] : []),
        AUTH,
      );

    it('creates a character from a name and a clip, and retrieves it', async () => {
      const created = await createCharacter({ name: 'Captain Otter' }, simulatedMp4().bytes);
      expect(created.status).toBe(200);
      const character = parseJson(created.text);
      expect(character).toEqual({
        id: expect.stringMatching(/^char_/),
        object: 'character',
        name: 'Captain Otter',
        created_at: expect.any(Number),
      });
      const fetched = await getUrl(`${simulator.url}/v1/videos/characters/${String(character['id'])}`, AUTH);
      expect(parseJson(fetched.text)).toEqual(character);
      const otherKey = await getUrl(`${simulator.url}/v1/videos/characters/${String(character['id'])}`, {
        authorization: 'Bearer someone-else',
      });
      expect(otherKey.status).toBe(401);
    });

    it('refuses a missing name, a missing clip and a clip that is not a video', async () => {
      expect(errorOf((await createCharacter({}, simulatedMp4().bytes)).text)).toMatchObject({
        param: 'name',
      });
      expect(errorOf((await createCharacter({ name: 'a' })).text)).toMatchObject({ param: 'video' });
      expect(errorOf((await createCharacter({ name: 'a' }, png(8, 8))).text)).toMatchObject({
        param: 'video',
      });
    });
  });
});
