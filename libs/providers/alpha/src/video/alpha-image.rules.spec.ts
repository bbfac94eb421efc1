import {
  dataUrlOf,
  gifBytes,
  jpegBytes,
  paddedPngBytes,
  pngBytes,
  pngDataUrl,
  webpBytes,
} from '../testing/alpha-test-images';
import { ByteStrings } from '@gateway/providers-core';
import { ALPHA_IMAGE_MAX_BYTES, alphaImageRefusal } from './alpha-image.rules';

/** The image as a string. */
const asString = (image: unknown, param: string) => alphaImageRefusal(image, param);

/** The image held as bytes where ByteStrings can hold it (as the alpha routes' large bodies do): the same answers. */
function asHeldBytes(image: unknown, param: string) {
  const bytes = typeof image === 'string' ? Buffer.from(image, 'latin1') : undefined;
  if (!bytes || !ByteStrings.canHold(bytes)) return alphaImageRefusal(image, param);
  const byteStrings = new ByteStrings();
  return alphaImageRefusal(byteStrings.add(bytes), param, byteStrings);
}

/** The images of exactly 50 MB and one byte more: 70 MB of Base64 each, built once for both forms. */
let largest: { atLimit: string; pastLimit: string } | undefined;
function largestImages(): { atLimit: string; pastLimit: string } {
  largest ??= {
    atLimit: dataUrlOf('image/png', paddedPngBytes(ALPHA_IMAGE_MAX_BYTES)),
    pastLimit: dataUrlOf('image/png', paddedPngBytes(ALPHA_IMAGE_MAX_BYTES + 1)),
  };
  return largest;
}

describe.each([
  ['as a string', asString],
  ['held as bytes', asHeldBytes],
])('alphaImageRefusal, the image %s', (_form, refusalWith) => {
  const refusalOf = (image: unknown) => refusalWith(image, 'image');

  it.each([
    ['png', pngDataUrl(128, 128)],
    ['jpeg', dataUrlOf('image/jpeg', jpegBytes(640, 360))],
    ['jpg', dataUrlOf('image/jpg', jpegBytes(360, 640))],
    ['webp', dataUrlOf('image/webp', webpBytes(1024, 1024))],
    ['an upper-case prefix', dataUrlOf('IMAGE/PNG', pngBytes(200, 200)).replace('data:', 'DATA:')],
    ['an http URL', 'http://images.example.test/a.png'],
    ['an https URL with a query', 'https://images.example.test/a?size=large'],
  ])('accepts %s', (_, image) => {
    expect(refusalOf(image)).toBeUndefined();
  });

  it.each([
    ['127x127', pngDataUrl(127, 127), 'at least 128x128 pixels, not 127x127'],
    ['128x127', pngDataUrl(128, 127), 'at least 128x128 pixels'],
    ['1:5', pngDataUrl(128, 640), 'between 1:4 and 4:1, not 128x640'],
    ['5:1', pngDataUrl(640, 128), 'between 1:4 and 4:1'],
    ['just past 4:1', pngDataUrl(513, 128), 'between 1:4 and 4:1'],
  ])('refuses an image of %s', (_, image, rule) => {
    expect(refusalOf(image)).toEqual({ ok: false, param: 'image', message: expect.stringContaining(rule) });
  });

  it('accepts the 1:4 and 4:1 bounds themselves', () => {
    expect(refusalOf(pngDataUrl(128, 512))).toBeUndefined();
    expect(refusalOf(pngDataUrl(512, 128))).toBeUndefined();
  });

  it.each([
    [
      'a GIF declared as a GIF',
      dataUrlOf('image/gif', gifBytes(300, 300)),
      'must be png, jpeg, jpg, webp, not gif',
    ],
    [
      'a GIF declared as a PNG',
      dataUrlOf('image/png', gifBytes(300, 300)),
      'must be png, jpeg, jpg, webp, not gif',
    ],
    [
      'a PNG declared as a type named like an object member',
      dataUrlOf('image/constructor', pngBytes(300, 300)),
      'must be png, jpeg, jpg, webp, not constructor',
    ],
    [
      'a JPEG declared as a PNG',
      dataUrlOf('image/png', jpegBytes(300, 300)),
      'declared image/png but holds a jpg',
    ],
    [
      'text declared as a PNG',
      dataUrlOf('image/png', Buffer.from('not an image at all')),
      'not a readable image',
    ],
  ])('refuses %s', (_, image, rule) => {
    expect(refusalOf(image)).toMatchObject({ param: 'image', message: expect.stringContaining(rule) });
  });

  it.each([
    ['Base64 without its data: prefix', pngBytes(200, 200).toString('base64')],
    ['a data: URL that is not Base64', 'data:image/png,rawbytes'],
    ['a data: URL of another type', dataUrlOf('text/plain', pngBytes(200, 200))],
    ['a relative path', '/images/a.png'],
    ['a file URL', 'file:///etc/passwd'],
  ])('refuses %s, naming the accepted forms', (_, image) => {
    expect(refusalOf(image)?.message).toMatch(/data:image\/<fmt>;base64,.*png, jpeg, jpg, webp/);
  });

  it.each([
    ['characters outside the alphabet', 'data:image/png;base64,iVBORw0K!!GgoAAAA'],
    ['a length no Base64 text has', 'data:image/png;base64,iVBORw0KG'],
    ['padding in the middle', 'data:image/png;base64,iVBO=Rw0K'],
    ['nothing after the prefix', 'data:image/png;base64,'],
    [
      'whitespace',
      `data:image/png;base64,${pngBytes(200, 200)
        .toString('base64')
        .replace(/(.{76})/g, '$1\n')}`,
    ],
  ])('refuses bad Base64: %s', (_, image) => {
    expect(refusalOf(image)).toMatchObject({
      param: 'image',
      message: 'image is not valid Base64 after its data: prefix',
    });
  });

  it.each([
    ['a number', 42],
    ['an object', { url: 'https://images.example.test/a.png' }],
    ['null', null],
  ])('refuses %s', (_, image) => {
    expect(refusalOf(image)).toMatchObject({ param: 'image', message: 'image must be a string' });
  });

  it('refuses a malformed URL', () => {
    expect(refusalOf('https://exa mple.test/a.png')?.message).toBe('image is not a valid URL');
  });

  it('reads a JPEG whose frame header sits past a megabyte of EXIF segments', () => {
    const padded = jpegBytes(100, 100, 1_300_000);
    expect(padded.length).toBeGreaterThan(1_300_000);
    expect(refusalOf(dataUrlOf('image/jpeg', padded))?.message).toContain('not 100x100');
    expect(refusalOf(dataUrlOf('image/jpeg', jpegBytes(300, 200, 1_300_000)))).toBeUndefined();
  });

  it('accepts an image of exactly 50 MB and refuses one byte more with 413', () => {
    const { atLimit, pastLimit } = largestImages();
    expect(refusalOf(atLimit)).toBeUndefined();
    expect(refusalOf(pastLimit)).toEqual({
      ok: false,
      param: 'image',
      message: 'image must be at most 50 MB',
      httpStatus: 413,
    });
  });

  it('names the field it was given', () => {
    expect(refusalWith(pngDataUrl(20, 20), 'subjects[1].images[2]')).toMatchObject({
      param: 'subjects[1].images[2]',
      message: expect.stringMatching(/^subjects\[1\]\.images\[2\] must be at least 128x128/),
    });
  });
});
