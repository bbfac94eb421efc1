import type { ImageInput } from '@gateway/providers-core';
import { encode as encodeJpeg } from 'jpeg-js';
import { PNG } from 'pngjs';

// Filter type 0: pngjs's adaptive filters call Math.abs per byte, which Jest's sandbox slows ~200×.
/** Real PNG bytes of a size, with an alpha channel (as a mask needs). For specs only. */
export function pngBytes(width: number, height: number): Buffer {
  return PNG.sync.write(new PNG({ width, height }), { filterType: 0 });
}

export function pngInput(width: number, height: number): ImageInput {
  return { kind: 'bytes', bytes: pngBytes(width, height), contentType: 'image/png' };
}

export function jpegInput(width: number, height: number): ImageInput {
  const pixels = Buffer.alloc(width * height * 4, 0x80);
  return {
    kind: 'bytes',
    bytes: encodeJpeg({ data: pixels, width, height }, 80).data,
    contentType: 'image/jpeg',
  };
}

export function urlInput(url = 'https://images.example.test/cat.png'): ImageInput {
  return { kind: 'url', url };
}
