import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import { waitFor } from '@gateway/testing';
import { encode as encodeJpeg } from 'jpeg-js';
import {
  alphaSubmissionOf,
  alphaSubmissions,
  dataUrlOf,
  holdsOf,
  pngBytes,
  seedAlphaDemo,
  startImageServer,
  startTrustingInstance,
  until,
  type AlphaDemo,
  type AlphaError,
  type ImageServer,
} from './alpha-demo';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';
import { ALLOW_TASK_ROWS, refuseTaskRows } from './task-row-refusal';
import { newVideoAccount, startVideoWorker } from './video-demo';

const MB = 1024 * 1024;
const BODY_LIMIT = 20 * MB;
/** The gateway-wide limit of the instance under test: the alpha routes have their own. */
const GATEWAY_BODY_LIMIT = 4 * MB;
const IMAGE_LIMIT = 50 * MB;
const PNG = dataUrlOf('image/png', pngBytes(256, 256));

/** A GIF header: a format the family refuses, whatever its size. */
function gifBytes(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(13);
  bytes.write('GIF89a', 0, 'latin1');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

function jpegBytes(width: number, height: number): Buffer {
  return encodeJpeg({ data: Buffer.alloc(width * height * 4, 0x80), width, height }, 80).data;
}

/**
 * A reference2video body of exactly `size` bytes: one subject whose image is a PNG header padded with
 * zeros (the gateway reads its header only), the prompt carrying `marker` and the last few bytes.
 */
function bodyOfSize(size: number, marker: string): Buffer {
  const skeleton = (base64: string, filler: string) =>
    JSON.stringify({
      model: 'alphaq2-pro',
      prompt: `${marker} @cat${filler}`,
      subjects: [{ id: 'cat', images: [`data:image/png;base64,${base64}`] }],
      duration: 5,
      resolution: '720p',
    });
  const room = size - Buffer.byteLength(skeleton('', ''));
  const base64Length = Math.floor(room / 4) * 4;
  const image = Buffer.alloc((base64Length / 4) * 3);
  pngBytes(256, 256).copy(image);
  return Buffer.from(skeleton(image.toString('base64'), ' '.repeat(room - base64Length)));
}

/**
 * The alpha limits of issue 22, each refused before anything is held, in the alpha envelope naming
 * the field and the rule; URL images are checked from their first bytes, fetched through the SSRF-safe
 * fetcher; the same requests under the limits are accepted.
 */
describe('alpha limits on /alpha/ent/v2/reference2video', () => {
  let harness: GatewayHarness;
  let gateway: GatewayInstance;
  let worker: INestApplicationContext;
  let demo: AlphaDemo;
  let images: ImageServer;
  let trap: { port: number; hits: number; close(): Promise<void> };

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await seedAlphaDemo(harness);
    worker = await startVideoWorker(harness);
    const png = pngBytes(256, 256);
    const jpeg = jpegBytes(320, 240);
    images = await startImageServer({
      '/ok.png': { head: png, size: png.length },
      '/whole.jpg': { head: jpeg, size: jpeg.length, ranges: false },
      '/small.png': { head: pngBytes(127, 127), size: pngBytes(127, 127).length },
      '/narrow.png': { head: pngBytes(128, 640), size: pngBytes(128, 640).length },
      '/picture.gif': { head: gifBytes(256, 256), size: 13 },
      '/huge.png': { head: png, size: IMAGE_LIMIT + 1 },
      '/limit.png': { head: png, size: IMAGE_LIMIT },
      '/text.png': { head: Buffer.from('<html>not an image</html>'), size: 25 },
    });
    trap = await startTrap();
    // The image server is allowed like an operator's SSRF_ALLOW_HOSTS entry; the trap is not. The
    // gateway-wide JSON limit is set far below the alpha routes' own, which must hold regardless.
    gateway = await startTrustingInstance(harness, [images.host], { jsonBodyLimitBytes: GATEWAY_BODY_LIMIT });
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
    await images?.close();
    await trap?.close();
  });

  const submit = (body: unknown, key = demo.key) =>
    harness.request<AlphaError & { task_id: string; status: string }>(
      'POST',
      '/alpha/ent/v2/reference2video',
      {
        body,
        headers: { authorization: `Bearer ${key}` },
        baseUrl: gateway.url,
      },
    );
  const subjectsWith = (...subjectImages: string[]) => ({
    model: 'alphaq2-pro',
    prompt: '@cat on a skateboard',
    subjects: [{ id: 'cat', images: subjectImages }],
  });

  it.each([
    [
      'a subject with 4 images',
      () => subjectsWith(PNG, PNG, PNG, PNG),
      'subjects[0].images must hold 1 to 3 images',
    ],
    [
      'a 127x127 image',
      () => subjectsWith(dataUrlOf('image/png', pngBytes(127, 127))),
      'subjects[0].images[0] must be at least 128x128 pixels, not 127x127',
    ],
    [
      'a 1:5 image',
      () => subjectsWith(PNG, dataUrlOf('image/png', pngBytes(128, 640))),
      'subjects[0].images[1] must have an aspect ratio between 1:4 and 4:1, not 128x640',
    ],
    [
      'a GIF',
      () => subjectsWith(dataUrlOf('image/gif', gifBytes(256, 256))),
      'subjects[0].images[0] must be png, jpeg, jpg, webp, not gif',
    ],
    [
      'a GIF declared as a PNG',
      () => subjectsWith(dataUrlOf('image/png', gifBytes(256, 256))),
      'subjects[0].images[0] must be png, jpeg, jpg, webp, not gif',
    ],
    [
      'Base64 without its data: prefix',
      () => subjectsWith(pngBytes(256, 256).toString('base64')),
      'subjects[0].images[0] must be an http(s) URL or Base64 with its data:image/<fmt>;base64, prefix',
    ],
    [
      'a URL image of 127x127',
      () => subjectsWith(images.url('/small.png')),
      'subjects[0].images[0] must be at least 128x128 pixels, not 127x127',
    ],
    [
      'a URL image of 1:5',
      () => subjectsWith(images.url('/narrow.png')),
      'subjects[0].images[0] must have an aspect ratio between 1:4 and 4:1, not 128x640',
    ],
    [
      'a URL image that is a GIF',
      () => subjectsWith(images.url('/picture.gif')),
      'subjects[0].images[0] must be png, jpeg, jpg, webp, not gif',
    ],
    [
      'a URL image of 50 MB + 1 byte',
      () => subjectsWith(PNG, images.url('/huge.png')),
      `subjects[0].images[1] must be at most 50 MB, not ${IMAGE_LIMIT + 1} bytes`,
    ],
    [
      'a URL that is no image',
      () => subjectsWith(images.url('/text.png')),
      'subjects[0].images[0] is not a png, jpeg, jpg or webp image',
    ],
    [
      'a URL image that is not there',
      () => subjectsWith(images.url('/missing.png')),
      'subjects[0].images[0] could not be downloaded: it answered HTTP 404',
    ],
    [
      'reference images beside subjects',
      () => ({ ...subjectsWith(PNG), images: [PNG] }),
      'send reference images or subjects, not both',
    ],
    [
      'subjects with 8 images in all',
      () => ({
        model: 'alphaq2-pro',
        subjects: [1, 2, 3].map((index) => ({
          id: `s${index}`,
          images: index === 3 ? [PNG, PNG] : [PNG, PNG, PNG],
        })),
      }),
      'at most 7 reference images in all, not 8',
    ],
  ])('refuses %s naming the rule, holding nothing', async (_case, body, rule) => {
    const { key, accountId } = await newVideoAccount(harness);
    const answer = await submit(body(), key);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 400,
      metadata: { trace_id: answer.headers.get('x-request-id') },
    });
    expect(answer.body.message).toContain(rule);
    expect(await holdsOf(harness, accountId)).toBe(0);
  });

  /** An image padded with zero bytes to 2 MB: a body this large holds its images as bytes (ByteStrings). */
  const held = (mediaType: string, header: Buffer) =>
    dataUrlOf(mediaType, Buffer.concat([header, Buffer.alloc(2 * MB - header.length)]));
  const heldPng = held('image/png', pngBytes(256, 256));

  it.each([
    [
      'a 127x127 image',
      () => subjectsWith(held('image/png', pngBytes(127, 127))),
      'subjects[0].images[0] must be at least 128x128 pixels, not 127x127',
    ],
    [
      'a 1:5 image',
      () => subjectsWith(heldPng, held('image/png', pngBytes(128, 640))),
      'subjects[0].images[1] must have an aspect ratio between 1:4 and 4:1, not 128x640',
    ],
    [
      'a GIF declared as a PNG',
      () => subjectsWith(held('image/png', gifBytes(256, 256))),
      'subjects[0].images[0] must be png, jpeg, jpg, webp, not gif',
    ],
    [
      'a data: URL that is not Base64',
      () => subjectsWith(`data:image/png,${'A'.repeat(2 * MB)}`),
      'subjects[0].images[0] must start with data:image/<fmt>;base64,',
    ],
    [
      'a character outside Base64 a megabyte in',
      () => subjectsWith(`${heldPng.slice(0, MB)}*${heldPng.slice(MB + 1)}`),
      'subjects[0].images[0] is not valid Base64 after its data: prefix',
    ],
    [
      'a reference image among `images` that is a GIF',
      () => ({
        model: 'alphaq2-pro',
        prompt: 'a cat',
        images: [heldPng, held('image/gif', gifBytes(256, 256))],
      }),
      'images[1] must be png, jpeg, jpg, webp, not gif',
    ],
  ])(
    'refuses %s held as the bytes of a large body, naming the rule, holding nothing',
    async (_case, body, rule) => {
      const { key, accountId } = await newVideoAccount(harness);
      const answer = await submit(body(), key);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toContain(rule);
      expect(await holdsOf(harness, accountId)).toBe(0);
    },
  );

  it('reads only the first bytes of a URL image, asking for them with a Range', async () => {
    const before = images.requests.length;
    await submit(subjectsWith(images.url('/huge.png')));
    const [request] = images.requests.slice(before);
    expect(request.path).toBe('/huge.png');
    expect(request.range).toMatch(/^bytes=0-\d+$/);
    expect(request.bytesSent).toBeLessThanOrEqual(MB);
  });

  it('refuses a URL image at a private address without connecting to it', async () => {
    const { key, accountId } = await newVideoAccount(harness);
    const answer = await submit(subjectsWith(PNG, `http://127.0.0.1:${trap.port}/cat.png`), key);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 400,
      reason: 'ImageDownloadFailure',
      message: 'subjects[0].images[1] is at a non-public address; the gateway does not fetch it',
    });
    const metadata = await submit(subjectsWith('http://169.254.169.254/latest/meta-data/cat.png'), key);
    expect(metadata.body).toMatchObject({ code: 400, reason: 'ImageDownloadFailure' });
    expect(trap.hits).toBe(0);
    expect(await holdsOf(harness, accountId)).toBe(0);
  });

  it('answers 503 when Postgres refuses the row of a large body after its hold, releases the hold, and writes the next', async () => {
    const { key, accountId } = await newVideoAccount(harness);
    // The row of a request with held images is written through COPY, then INSERT … SELECT: refused there.
    await harness.query(refuseTaskRows('P0001', 'refuse this row'));
    try {
      const refused = await submit({ ...subjectsWith(heldPng), prompt: '@cat, refuse this row' }, key);
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ code: 503 });
      const written = await submit({ ...subjectsWith(heldPng), prompt: '@cat, write this row' }, key);
      expect(written.status).toBe(200);
      // The refused create's hold (no row names it) was released; the written one's is its task's.
      const unwritten = await harness.query<{ status: string }>(
        `select status from holds h where account_id = $1
            and not exists (select 1 from tasks t where t.hold_request_id = h.request_id)`,
        [accountId],
      );
      expect(unwritten).toEqual([{ status: 'settled' }]);
      const rows = await harness.query<{ id: string }>('select id from tasks where account_id = $1', [
        accountId,
      ]);
      expect(rows.map((row) => row.id)).toEqual([written.body.task_id]);
    } finally {
      await harness.query(ALLOW_TASK_ROWS);
    }
  });

  it('answers a body of 20 MB + 1 byte 413 in the alpha envelope, before reading it, holding nothing', async () => {
    const { key, accountId } = await newVideoAccount(harness);
    const marker = 'Body over the limit';
    const answer = await harness.request<AlphaError>('POST', '/alpha/ent/v2/reference2video', {
      rawBody: bodyOfSize(BODY_LIMIT + 1, marker),
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      baseUrl: gateway.url,
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({
      code: 413,
      reason: 'BadRequest',
      message: `Request body is larger than the limit of ${BODY_LIMIT} bytes.`,
    });
    expect(await holdsOf(harness, accountId)).toBe(0);
    expect(await alphaSubmissions(harness, marker)).toEqual([]);
  });

  it('keeps the gateway-wide limit on the other routes', async () => {
    const answer = await harness.request<{ error: { code: string } }>('POST', '/v1/videos', {
      rawBody: Buffer.alloc(GATEWAY_BODY_LIMIT + 1, 0x20),
      headers: { authorization: `Bearer ${demo.key}`, 'content-type': 'application/json' },
      baseUrl: gateway.url,
    });
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe('payload_too_large');
  });

  it('accepts the same body at 20 MB exactly, and the task completes', async () => {
    const marker = 'Body at the limit';
    const body = bodyOfSize(BODY_LIMIT, marker);
    expect(body.length).toBe(BODY_LIMIT);
    const answer = await harness.request<{ task_id: string; status: string }>(
      'POST',
      '/alpha/ent/v2/reference2video',
      {
        rawBody: body,
        headers: { authorization: `Bearer ${demo.key}`, 'content-type': 'application/json' },
        baseUrl: gateway.url,
      },
    );
    expect(answer.status).toBe(200);
    await waitFor(async () => (await alphaSubmissions(harness, marker)).length === 1, 30_000);
    expect((await alphaSubmissions(harness, marker))[0].path).toBe('/ent/v2/reference2video');
    const done = await until(
      () =>
        harness.request<{ status: string }>('GET', `/alpha/ent/v2/task/${answer.body.task_id}/creations`, {
          headers: { authorization: `Bearer ${demo.key}` },
          baseUrl: gateway.url,
        }),
      (query) => query.body.status !== 'processing',
    );
    // The whole answer, so that a failure shows the task's error.
    expect(done.body).toMatchObject({ status: 'completed' });
    // Held as the body's bytes, copied to the row in pieces and read back by the worker, the image
    // reached the upstream whole; once the upstream took the task the row keeps only a marker of it.
    const sent = (JSON.parse(body.toString()) as { subjects: Array<{ images: string[] }> }).subjects[0]
      .images[0];
    const [submission] = await alphaSubmissions(harness, marker);
    // The wire carries the Base64 itself; the simulator's journal keeps a body's first 64 KiB. The
    // whole image's integrity through the COPY path is TaskStore's own test; its length is the marker's.
    const base64 = sent.slice(sent.indexOf(',') + 1);
    expect(submission.body.includes(base64.slice(0, 32 * 1024))).toBe(true);
    const [row] = await harness.query<{ image: string; size: number }>(
      `select request->'subjects'->0->'images'->>0 as image, pg_column_size(request) as size
         from tasks where id = $1`,
      [answer.body.task_id],
    );
    expect(row.image).toBe(
      `[inline input of ${sent.length} characters, dropped once the upstream accepted the task]`,
    );
    expect(row.size).toBeLessThan(64 * 1024);
  });

  it('accepts URL images within the limits: ranged, of exactly 50 MB, or from a server that ignores ranges', async () => {
    const prompt = '@cat and @dog under the rain';
    const answer = await submit({
      model: 'alphaq2-pro',
      prompt,
      subjects: [
        { id: 'cat', images: [images.url('/ok.png'), images.url('/limit.png')] },
        { id: 'dog', images: [images.url('/whole.jpg')] },
      ],
    });
    expect(answer.status).toBe(200);
    const received = await alphaSubmissionOf(harness, prompt);
    expect(received.body.subjects).toEqual([
      { id: 'cat', images: [images.url('/ok.png'), images.url('/limit.png')] },
      { id: 'dog', images: [images.url('/whole.jpg')] },
    ]);
  });
});

/** A loopback server that counts requests: the private-address test proves none reaches it. */
async function startTrap(): Promise<{ port: number; hits: number; close(): Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((_request, response) => {
    hits += 1;
    response.writeHead(200, { 'content-type': 'image/png' }).end(pngBytes(256, 256));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get hits() {
      return hits;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
