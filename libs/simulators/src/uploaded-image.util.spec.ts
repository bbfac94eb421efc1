import { crc32 } from 'node:zlib';
import { PNG } from 'pngjs';
import { solidImage } from './image-bytes.util';
import { encodeSolidPng } from './png.util';
import {
  decodeBase64Image,
  inspectImage,
  isBase64,
  isImageDataUri,
  pngHasAlpha,
} from './uploaded-image.util';

describe('inspectImage', () => {
  it('reads the type and size of PNG, JPEG and WebP bytes', () => {
    expect(inspectImage(solidImage('png', 30, 20).bytes)).toEqual({ type: 'png', width: 30, height: 20 });
    expect(inspectImage(solidImage('jpeg', 16, 24).bytes)).toEqual({ type: 'jpg', width: 16, height: 24 });
    expect(inspectImage(solidImage('webp', 9, 7).bytes)).toEqual({ type: 'webp', width: 9, height: 7 });
  });

  it('answers undefined for bytes that are no image', () => {
    expect(inspectImage(Buffer.from('hello, not an image'))).toBeUndefined();
  });
});

describe('decodeBase64Image', () => {
  const png = solidImage('png', 4, 4);

  it('accepts bare Base64 and a data: URL', () => {
    expect(decodeBase64Image(png.base64)).toEqual(png.bytes);
    expect(decodeBase64Image(`data:image/png;base64,${png.base64}`)).toEqual(png.bytes);
  });

  it.each([['not base64!'], [''], ['data:image/png,rawtext'], ['data:image/png;base64,']])(
    'refuses %j',
    (text) => {
      expect(decodeBase64Image(text)).toBeUndefined();
    },
  );
});

describe('pngHasAlpha', () => {
  it('is true for an RGBA PNG and false for an RGB one', () => {
    const rgba = PNG.sync.write(new PNG({ width: 2, height: 2 }));
    expect(pngHasAlpha(rgba)).toBe(true);
    expect(pngHasAlpha(encodeSolidPng(2, 2, 0))).toBe(false);
  });

  it('is true for an RGB PNG with a tRNS chunk before its image data', () => {
    const rgb = encodeSolidPng(2, 2, 0);
    const afterHeader = 8 + 12 + 13; // signature, IHDR chunk
    expect(
      pngHasAlpha(Buffer.concat([rgb.subarray(0, afterHeader), trnsChunk(), rgb.subarray(afterHeader)])),
    ).toBe(true);
  });
});

function trnsChunk(): Buffer {
  const typeAndData = Buffer.concat([Buffer.from('tRNS', 'ascii'), Buffer.from([0, 0, 0, 0, 0, 0])]);
  const chunk = Buffer.alloc(8 + typeAndData.length);
  chunk.writeUInt32BE(typeAndData.length - 4, 0);
  typeAndData.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(typeAndData), 4 + typeAndData.length);
  return chunk;
}

describe('isBase64 and isImageDataUri', () => {
  const long = Buffer.alloc(15 * 1024 * 1024, 0x5a).toString('base64');

  it('read megabytes of Base64 and find a wrong character anywhere in them', () => {
    expect(isBase64(long)).toBe(true);
    expect(isBase64(`${long.slice(0, 70_000)}!${long.slice(70_001)}`)).toBe(false);
    expect(isBase64('==')).toBe(false);
  });

  it('take an image data: URI only with its prefix and Base64 after it', () => {
    expect(isImageDataUri(`data:image/png;base64,${long}`)).toBe(true);
    expect(isImageDataUri(`data:image/png;base64,${long}%`)).toBe(false);
    expect(isImageDataUri(`data:image/${'x'.repeat(1_000_000)};base64,AAAA`)).toBe(false);
    expect(isImageDataUri('data:text/plain;base64,AAAA')).toBe(false);
  });
});
