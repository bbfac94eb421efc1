import { imageSize } from 'image-size';
import { PNG } from 'pngjs';
import { solidImage } from '../image-bytes.util';
import { JournalEntry } from '../request-journal';
import { RunningSimulator, startSimulator } from '../server';
import { getBytes, getUrl, parseJson, postForm, postJson } from '../testing/simulator-client.util';

const AUTH = { authorization: 'Bearer sim-compat-key' };

interface Upload {
  field: string;
  bytes: Buffer;
  filename?: string;
  type?: string;
}

function formOf(fields: Record<string, string>, uploads: Upload[]): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const { field, bytes, filename, type } of uploads) {
    form.append(
      field,
      new Blob([new Uint8Array(bytes)], { type: type ?? 'image/png' }),
      filename ?? 'upload.png',
    );
  }
  return form;
}

// Filter type 0: pngjs's adaptive filters call Math.abs per byte, which Jest's sandbox slows ~200×.
function alphaPng(width: number, height: number): Buffer {
  return PNG.sync.write(new PNG({ width, height }), { filterType: 0 });
}

describe('compat image edits (multipart)', () => {
  let simulator: RunningSimulator;
  const edit = (
    fields: Record<string, string>,
    uploads: Upload[],
    headers = AUTH,
  ): ReturnType<typeof postForm> =>
    postForm(`${simulator.url}/v1/images/edits`, formOf(fields, uploads), headers);
  const square = solidImage('png', 256, 256).bytes;

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(() => simulator.close());

  it('edits for img-1 with an image and a mask, counting the input image, and journals the form', async () => {
    await postJson(`${simulator.url}/__sim/reset`, {});
    const result = await edit(
      { model: 'img-1', prompt: 'add a hat', size: '1024x1536', input_fidelity: 'high' },
      [
        { field: 'image', bytes: square },
        { field: 'mask', bytes: alphaPng(256, 256), filename: 'mask.png' },
      ],
    );
    expect(result.status).toBe(200);
    const answer = parseJson(result.text) as {
      data: Array<{ b64_json: string }>;
      usage: Record<string, unknown>;
    };
    expect(imageSize(Buffer.from(answer.data[0].b64_json, 'base64'))).toMatchObject({
      width: 1024,
      height: 1536,
    });
    expect(answer.usage).toMatchObject({ input_tokens_details: { text_tokens: 3, image_tokens: 85 } });
    const [entry] = JSON.parse((await getUrl(`${simulator.url}/__sim/requests`)).text) as JournalEntry[];
    expect(entry.body).toBe('');
    expect(entry.form).toEqual({
      fields: { model: 'img-1', prompt: 'add a hat', size: '1024x1536', input_fidelity: 'high' },
      files: [
        { field: 'image', filename: 'upload.png', contentType: 'image/png', bytes: square.length },
        { field: 'mask', filename: 'mask.png', contentType: 'image/png', bytes: expect.any(Number) },
      ],
    });
  });

  it('takes repeated image[] files of png, jpeg and webp for img-2', async () => {
    const result = await edit({ model: 'img-2', prompt: 'merge', n: '2' }, [
      { field: 'image[]', bytes: square },
      { field: 'image[]', bytes: solidImage('jpeg', 64, 64).bytes, type: 'image/jpeg', filename: 'b.jpg' },
      { field: 'image[]', bytes: solidImage('webp', 64, 64).bytes, type: 'image/webp', filename: 'c.webp' },
    ]);
    expect(result.status).toBe(200);
    expect(parseJson(result.text)).toMatchObject({
      data: [{ b64_json: expect.any(String) }, { b64_json: expect.any(String) }],
      usage: { input_tokens_details: { image_tokens: 3 * 85 } },
    });
  });

  it('edits for draw-2 with a URL answer whose file has the size asked for', async () => {
    const result = await edit({ model: 'draw-2', prompt: 'x', size: '512x512' }, [
      { field: 'image', bytes: square },
      { field: 'mask', bytes: alphaPng(256, 256) },
    ]);
    expect(result.status).toBe(200);
    const [item] = (parseJson(result.text) as { data: Array<{ url: string }> }).data;
    expect(imageSize((await getBytes(item.url)).bytes)).toMatchObject({ width: 512, height: 512 });
    const base64 = await edit({ model: 'draw-2', prompt: 'x', response_format: 'b64_json' }, [
      { field: 'image', bytes: square },
    ]);
    expect(parseJson(base64.text)).toMatchObject({ data: [{ b64_json: expect.any(String) }] });
  });

  it('finds a [[sim …]] marker in the prompt part', async () => {
    const result = await edit({ model: 'img-1', prompt: 'x [[sim error=rate_limit]]' }, [
      { field: 'image', bytes: square },
    ]);
    expect(result.status).toBe(429);
  });

  describe('refusals', () => {
    const fourMegabytePng = (): Buffer => {
      // A valid square PNG padded past 4 MB with an ancillary chunk that decoders skip.
      const png = solidImage('png', 64, 64).bytes;
      const padding = Buffer.alloc(8 + 4 * 1024 * 1024 + 4);
      padding.writeUInt32BE(4 * 1024 * 1024, 0);
      padding.write('zzPd', 4, 'ascii');
      return Buffer.concat([png.subarray(0, 33), padding, png.subarray(33)]);
    };

    it.each<[string, Record<string, string>, Upload[], string, string]>([
      ['no image', { model: 'img-1', prompt: 'x' }, [], 'image', 'missing_required_parameter'],
      [
        'draw-3 (no edits)',
        { model: 'draw-3', prompt: 'x' },
        [{ field: 'image', bytes: square }],
        'model',
        'invalid_value',
      ],
      [
        'zeta (no edits)',
        { model: 'zeta-4-2-image', prompt: 'x' },
        [{ field: 'image', bytes: square }],
        'model',
        'invalid_value',
      ],
      [
        'a text file as image',
        { model: 'img-1', prompt: 'x' },
        [{ field: 'image', bytes: Buffer.from('plain text'), type: 'text/plain', filename: 'a.txt' }],
        'image',
        'invalid_value',
      ],
      [
        '17 images for img-1',
        { model: 'img-1', prompt: 'x' },
        Array.from({ length: 17 }, () => ({ field: 'image[]', bytes: square })),
        'image',
        'invalid_value',
      ],
      [
        'a JPEG for draw-2',
        { model: 'draw-2', prompt: 'x' },
        [{ field: 'image', bytes: solidImage('jpeg', 64, 64).bytes, type: 'image/jpeg' }],
        'image',
        'invalid_value',
      ],
      [
        'a non-square image for draw-2',
        { model: 'draw-2', prompt: 'x' },
        [{ field: 'image', bytes: solidImage('png', 64, 32).bytes }],
        'image',
        'invalid_value',
      ],
      [
        'a 4 MB image for draw-2',
        { model: 'draw-2', prompt: 'x' },
        [{ field: 'image', bytes: fourMegabytePng() }],
        'image',
        'invalid_value',
      ],
      [
        'a mask without alpha',
        { model: 'img-1', prompt: 'x' },
        [
          { field: 'image', bytes: square },
          { field: 'mask', bytes: square },
        ],
        'mask',
        'invalid_value',
      ],
      [
        'a mask of another size',
        { model: 'img-1', prompt: 'x' },
        [
          { field: 'image', bytes: square },
          { field: 'mask', bytes: alphaPng(128, 128) },
        ],
        'mask',
        'invalid_value',
      ],
      [
        'response_format on img-1',
        { model: 'img-1', prompt: 'x', response_format: 'url' },
        [{ field: 'image', bytes: square }],
        'response_format',
        'unknown_parameter',
      ],
      [
        'input_fidelity medium',
        { model: 'img-1', prompt: 'x', input_fidelity: 'medium' },
        [{ field: 'image', bytes: square }],
        'input_fidelity',
        'invalid_value',
      ],
      [
        'n as a word',
        { model: 'img-1', prompt: 'x', n: 'two' },
        [{ field: 'image', bytes: square }],
        'n',
        'invalid_type',
      ],
    ])('refuses %s (400 naming %s)', async (_case, fields, uploads, param, code) => {
      const result = await edit(fields, uploads);
      expect(result.status).toBe(400);
      expect(parseJson(result.text)).toMatchObject({ error: { param, code } });
    });

    it('answers malformed multipart and a JSON body with 400 in the OpenAI-style envelope', async () => {
      const malformed = await fetch(`${simulator.url}/v1/images/edits`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'multipart/form-data; boundary=xyz' },
        body: '--xyz\r\nContent-Disposition: form-data; name="model"\r\n\r\nimg-1\r\n--xyz\r\nContent-Disp',
      });
      expect(malformed.status).toBe(400);
      expect(await malformed.json()).toMatchObject({
        error: {
          type: 'invalid_request_error',
          message: expect.stringContaining('Could not parse multipart form'),
        },
      });
      const json = await postJson(`${simulator.url}/v1/images/edits`, { model: 'img-1', prompt: 'x' }, AUTH);
      expect(json.status).toBe(400);
      expect(parseJson(json.text)).toMatchObject({
        error: { message: expect.stringContaining('multipart/form-data') },
      });
    });

    it('checks the key before reporting a malformed form', async () => {
      const result = await fetch(`${simulator.url}/v1/images/edits`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer wrong-key-123',
          'content-type': 'multipart/form-data; boundary=xyz',
        },
        body: '--xyz\r\nContent-Disp',
      });
      expect(result.status).toBe(401);
    });
  });
});
