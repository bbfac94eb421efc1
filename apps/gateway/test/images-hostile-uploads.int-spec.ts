import { request as httpRequest } from 'node:http';
import type { ObjectStore } from '@gateway/storage';
import { OBJECT_STORE } from '../src/platform/infrastructure/tokens';
import { GatewayHarness } from './gateway-harness';
import { imageHarnessEnv, pngOf, seedImageDemo, type ImageDemo } from './image-demo';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One part of a hand-built multipart body: its header lines and its content. */
interface Part {
  headers: string[];
  content: string | Buffer;
}

const BOUNDARY = 'hostile-boundary-7d1f';
const EDIT_FIELDS = { model: 'img-1', prompt: 'Edit' };

function textPart(name: string, value: string): Part {
  return { headers: [`Content-Disposition: form-data; name="${name}"`], content: value };
}

function filePart(name: string, bytes: Buffer, filename = 'image.png'): Part {
  return {
    headers: [
      `Content-Disposition: form-data; name="${name}"; filename="${filename}"`,
      'Content-Type: image/png',
    ],
    content: bytes,
  };
}

/** A multipart body as bytes; `closed: false` leaves out the closing boundary. */
function multipartBody(parts: Part[], options: { boundary?: string; closed?: boolean } = {}): Buffer {
  const boundary = options.boundary ?? BOUNDARY;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n${part.headers.join('\r\n')}\r\n\r\n`, 'latin1'));
    chunks.push(typeof part.content === 'string' ? Buffer.from(part.content, 'utf8') : part.content);
    chunks.push(Buffer.from('\r\n'));
  }
  if (options.closed !== false) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

function editFields(): Part[] {
  return Object.entries(EDIT_FIELDS).map(([name, value]) => textPart(name, value));
}

/**
 * Hostile multipart bodies on `POST /v1/images/edits` and hostile ids and Range headers on
 * `GET /files/{id}`, sent byte for byte over node:http (fetch would normalise a path like
 * `/files/../x` and refuse odd headers). The key's account has no credit: a form read whole and found
 * valid is refused at the hold (402), so every answer is a 4xx and nothing can be charged. None may be
 * a 5xx or hang, and the gateway answers ordinary requests afterwards.
 */
describe('hostile uploads and stored-file requests', () => {
  let harness: GatewayHarness;
  let demo: ImageDemo;
  let png: Buffer;
  let storedId: string;

  beforeAll(async () => {
    harness = await GatewayHarness.start(imageHarnessEnv());
    demo = await seedImageDemo(harness, 0n);
    png = pngOf(16, 16);
    const store = harness.app.app.get<ObjectStore>(OBJECT_STORE);
    storedId = (await store.put(png, { contentType: 'image/png' })).id;
  });
  afterAll(() => harness.close());

  function raw(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: Buffer,
  ): Promise<RawAnswer> {
    const { hostname, port } = new URL(harness.url);
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest({ method, hostname, port, path, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  function edit(body: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`): Promise<RawAnswer> {
    return raw(
      'POST',
      '/v1/images/edits',
      { authorization: `Bearer ${demo.key}`, 'content-type': contentType },
      body,
    );
  }

  const imageFiles = (field: string, count: number) =>
    Array.from({ length: count }, (_, index) => filePart(field, png, `${index}.png`));

  const hostileForms: Array<[string, () => Promise<RawAnswer>]> = [
    [
      '10,000 text parts',
      () =>
        edit(
          multipartBody([
            ...editFields(),
            ...Array.from({ length: 10_000 }, (_, i) => textPart(`f${i}`, 'x')),
          ]),
        ),
    ],
    [
      'a part with 10,000 header lines',
      () =>
        edit(
          multipartBody([
            ...editFields(),
            {
              headers: [
                ...filePart('image', png).headers,
                ...Array.from({ length: 10_000 }, (_, i) => `X-H${i}: v`),
              ],
              content: png,
            },
          ]),
        ),
    ],
    [
      'a boundary never closed',
      () => edit(multipartBody([...editFields(), filePart('image', png)], { closed: false })),
    ],
    [
      'a boundary never closed, cut inside a file',
      () => edit(multipartBody([...editFields(), filePart('image', png.subarray(0, 40))], { closed: false })),
    ],
    [
      'a filename with path traversal and NUL',
      () =>
        edit(multipartBody([...editFields(), filePart('image', png, '../../../../etc/passwd\u0000.png')])),
    ],
    ['17 image[] files', () => edit(multipartBody([...editFields(), ...imageFiles('image[]', 17)]))],
    [
      '18 image[] files and a mask',
      () => edit(multipartBody([...editFields(), ...imageFiles('image[]', 18), filePart('mask', png)])),
    ],
    ['nested image[][] names', () => edit(multipartBody([...editFields(), ...imageFiles('image[][]', 2)]))],
    ['an image[0] name', () => edit(multipartBody([...editFields(), filePart('image[0]', png)]))],
    [
      'a file sent as the model',
      () => edit(multipartBody([textPart('prompt', 'Edit'), filePart('model', png), filePart('image', png)])),
    ],
    [
      'a part named __proto__',
      () => edit(multipartBody([...editFields(), textPart('__proto__', '{"n":5}'), filePart('image', png)])),
    ],
    [
      'a part without a name',
      () =>
        edit(
          multipartBody([
            ...editFields(),
            { headers: ['Content-Disposition: form-data'], content: 'x' },
            filePart('image', png),
          ]),
        ),
    ],
    [
      'a part without Content-Disposition',
      () => edit(multipartBody([...editFields(), { headers: ['Content-Type: image/png'], content: png }])),
    ],
    [
      'n twice',
      () =>
        edit(
          multipartBody([...editFields(), textPart('n', '1'), textPart('n', '1'), filePart('image', png)]),
        ),
    ],
    [
      'n of 2^53',
      () => edit(multipartBody([...editFields(), textPart('n', '9007199254740992'), filePart('image', png)])),
    ],
    [
      'a prompt with NUL',
      () =>
        edit(
          multipartBody([textPart('model', 'img-1'), textPart('prompt', 'a\u0000b'), filePart('image', png)]),
        ),
    ],
    [
      'a Content-Type boundary of 5,000 characters',
      () => {
        const boundary = 'b'.repeat(5_000);
        return edit(
          multipartBody([...editFields(), filePart('image', png)], { boundary }),
          `multipart/form-data; boundary=${boundary}`,
        );
      },
    ],
    [
      'an unclosed quoted boundary',
      () => edit(multipartBody(editFields()), `multipart/form-data; boundary="${BOUNDARY}`),
    ],
    [
      'an empty boundary',
      () => edit(multipartBody(editFields(), { boundary: '' }), 'multipart/form-data; boundary='),
    ],
    ['a body that never names the boundary', () => edit(Buffer.alloc(64 * 1024, 0x2d))],
    ['an empty body', () => edit(Buffer.alloc(0))],
    [
      '1 MB before the first boundary',
      () =>
        edit(
          Buffer.concat([
            Buffer.alloc(1024 * 1024, 0x41),
            Buffer.from('\r\n'),
            multipartBody([...editFields(), filePart('image', png)]),
          ]),
        ),
    ],
    [
      'multipart/mixed',
      () =>
        edit(
          multipartBody([...editFields(), filePart('image', png)]),
          `multipart/mixed; boundary=${BOUNDARY}`,
        ),
    ],
  ];

  it.each(hostileForms)('answers %s with a 4xx', async (_name, send) => {
    const answer = await send();
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(JSON.parse(answer.body.toString('utf8'))).toMatchObject({
      error: { message: expect.any(String) },
    });
  });

  it.each([
    ['a 0xff byte', Buffer.from([0x41, 0xff, 0x42])],
    ['latin-1 text', Buffer.from('Éditer', 'latin1')],
    ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80])],
  ])('refuses a text part with %s on both multipart routes with a 400 naming it', async (_case, bytes) => {
    const badPrompt: Part = { ...textPart('prompt', ''), content: bytes };
    const answers = await Promise.all([
      edit(multipartBody([textPart('model', 'img-1'), badPrompt, filePart('image', png)])),
      raw(
        'POST',
        '/v1/videos',
        {
          authorization: `Bearer ${demo.key}`,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        },
        multipartBody([textPart('model', 'delta-2'), badPrompt]),
      ),
    ]);
    for (const answer of answers) {
      expect({ status: answer.status, body: JSON.parse(answer.body.toString('utf8')) }).toEqual({
        status: 400,
        body: {
          error: expect.objectContaining({
            param: 'prompt',
            message: "The form field 'prompt' is not valid UTF-8 text.",
          }),
        },
      });
    }
  });

  it.each([
    '/files/../../etc/passwd',
    '/files/..%2f..%2fetc%2fpasswd',
    '/files/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/files/%2e%2e',
    '/files/%00',
    '/files/',
    '/files/%ZZ',
  ])('answers GET %s with a 4xx and no file', async (path) => {
    const answer = await raw('GET', path, {});
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body.toString('latin1')).not.toMatch(/root:/);
  });

  it('answers a stored id with a NUL or a path after it as not found, and an id of 10 KB as too long', async () => {
    for (const path of [`/files/${storedId}%00`, `/files/${storedId}/..`, `/files/${storedId}%2f..`]) {
      expect((await raw('GET', path, {})).status).toBe(404);
    }
    expect((await raw('GET', `/files/${'a'.repeat(10_240)}`, {})).status).toBe(414);
  });

  it.each([
    ['bytes=-0', 200],
    ['bytes=99999999999999999999-', 200],
    ['bytes=-99999999999999999999', 200],
    ['bytes=0-99999999999999999999', 200],
    ['bytes=5-1', 200],
    ['bytes=1e3-', 200],
    ['items=0-1', 200],
    ['bytes=\u00ff-', 200],
    [
      Array.from({ length: 1_000 }, (_, index) => `${index}-${index}`)
        .join(',')
        .replace(/^/, 'bytes='),
      200,
    ],
    ['bytes=0-0', 206],
    ['bytes=-1', 206],
    ['bytes=99999-', 416],
  ])(
    'serves the stored file for Range %#: whole (200), one range (206) or unsatisfiable (416)',
    async (range, status) => {
      const answer = await raw('GET', `/files/${storedId}`, { range });
      expect(answer.status).toBe(status);
      if (status === 200) expect(answer.body.equals(png)).toBe(true);
      if (status === 206) expect(answer.body).toHaveLength(1);
      if (status === 416) expect(answer.headers['content-range']).toBe(`bytes */${png.length}`);
    },
  );

  it('charged and held nothing, and still serves ordinary requests', async () => {
    await harness.settled();
    expect(await harness.ledgerTotals(demo.accountId)).toEqual({ capture: 0n, credit: 0n });
    const holds = await harness.query<{ n: number }>('select count(*)::int as n from holds');
    expect(holds[0].n).toBe(0);
    expect((await raw('GET', '/healthz', {})).status).toBe(200);
    const file = await raw('GET', `/files/${storedId}`, {});
    expect(file.body.equals(png)).toBe(true);
    // The form a client would send, read whole and refused only for the empty balance.
    const ordinary = await edit(multipartBody([...editFields(), filePart('image', png)]));
    expect(ordinary.status).toBe(402);
  });
});
