import { encode as encodeJpeg } from 'jpeg-js';
import { PNG } from 'pngjs';
import { imageContentTypeOf } from './image-content-type.util';

describe('imageContentTypeOf', () => {
  it('names the format the header shows', () => {
    const png = PNG.sync.write(new PNG({ width: 2, height: 3 }));
    const jpeg = encodeJpeg({ data: Buffer.alloc(2 * 3 * 4), width: 2, height: 3 }).data;

    expect(imageContentTypeOf(png)).toBe('image/png');
    expect(imageContentTypeOf(jpeg)).toBe('image/jpeg');
  });

  it('reads bytes that are no image of a known format as unknown, without throwing', () => {
    expect(imageContentTypeOf(Buffer.from('not an image at all'))).toBeUndefined();
    expect(imageContentTypeOf(Buffer.alloc(0))).toBeUndefined();
  });
});
