import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '@gateway/errors';
import { readMultipartForm, type MultipartLimits } from './multipart-form.reader';

const BOUNDARY = 'form-boundary';
const LIMITS: MultipartLimits = { fileBytes: 1024, totalBytes: 2048, files: 2, fields: 3, fieldBytes: 64 };

interface Part {
  name: string;
  bytes: Buffer;
  filename?: string;
  contentType?: string;
}

/** A multipart body as bytes, and a request that streams it as Fastify hands it to a route. */
function requestOf(parts: Part[]): FastifyRequest {
  const chunks = parts.flatMap(({ name, bytes, filename, contentType }) => [
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"` +
        (filename === undefined ? '' : `; filename="${filename}"`) +
        (contentType === undefined ? '' : `\r\nContent-Type: ${contentType}`) +
        '\r\n\r\n',
    ),
    bytes,
    Buffer.from('\r\n'),
  ]);
  const body = Buffer.concat([...chunks, Buffer.from(`--${BOUNDARY}--\r\n`)]);
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    raw: Readable.from([body]),
  } as unknown as FastifyRequest;
}

const text = (name: string, value: string | Buffer, contentType?: string): Part => ({
  name,
  bytes: typeof value === 'string' ? Buffer.from(value, 'utf8') : value,
  contentType,
});

async function refusalOf(parts: Part[]): Promise<GatewayError> {
  const refusal: unknown = await readMultipartForm(requestOf(parts), LIMITS).then(
    () => new Error('expected the form to be refused'),
    (error: unknown) => error,
  );
  if (refusal instanceof GatewayError) return refusal;
  throw refusal;
}

describe('readMultipartForm', () => {
  it('reads text parts as UTF-8, whatever charset they declare, and files as bytes', async () => {
    const form = await readMultipartForm(
      requestOf([
        text('prompt', 'un renard été 🦊'),
        text('prompt', 'Ünïcödé', 'text/plain; charset=utf-8'),
        {
          name: 'image',
          bytes: Buffer.from([0xff, 0x00, 0xfe]),
          filename: 'a.png',
          contentType: 'image/png',
        },
      ]),
      LIMITS,
    );
    expect(form.fields.get('prompt')).toEqual(['un renard été 🦊', 'Ünïcödé']);
    expect(form.files).toEqual([{ field: 'image', bytes: Buffer.from([0xff, 0x00, 0xfe]) }]);
  });

  it.each([
    ['a 0xff byte', Buffer.from([0x61, 0xff, 0x62])],
    ['a lone continuation byte', Buffer.from([0x61, 0x80, 0x62])],
    ['a truncated sequence', Buffer.from([0x61, 0xc3])],
    ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80])],
    ['latin-1 text', Buffer.from('été', 'latin1')],
  ])('refuses a text part with %s as a 400 naming it', async (_case, bytes) => {
    const refusal = await refusalOf([text('model', 'delta-2'), text('prompt', bytes)]);
    expect(refusal).toMatchObject({ httpStatus: 400, param: 'prompt' });
    expect(refusal.message).toBe("The form field 'prompt' is not valid UTF-8 text.");
  });

  it('refuses invalid UTF-8 even in a part that declares UTF-8', async () => {
    const refusal = await refusalOf([text('prompt', Buffer.from([0xff]), 'text/plain; charset=utf-8')]);
    expect(refusal).toMatchObject({ httpStatus: 400, param: 'prompt' });
  });

  it('keeps the limits of text parts and files', async () => {
    expect(await refusalOf([text('prompt', 'p'.repeat(65))])).toMatchObject({
      httpStatus: 400,
      param: 'prompt',
      message: "The form field 'prompt' exceeds 64 bytes.",
    });
    expect((await refusalOf([text('a', '1'), text('b', '2'), text('c', '3'), text('d', '4')])).message).toBe(
      'At most 3 form fields may be sent.',
    );
    const file = (name: string): Part => ({ name, bytes: Buffer.from('x'), filename: `${name}.png` });
    expect((await refusalOf([file('a'), file('b'), file('c')])).message).toBe(
      'At most 2 files may be uploaded.',
    );
    expect(await refusalOf([{ ...file('a'), bytes: Buffer.alloc(1025) }])).toMatchObject({ httpStatus: 413 });
  });
});
