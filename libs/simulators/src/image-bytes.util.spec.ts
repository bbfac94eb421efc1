import { imageSize } from 'image-size';
import { decode as decodeJpeg } from 'jpeg-js';
import { PNG } from 'pngjs';
import { solidImage } from './image-bytes.util';

describe('solidImage', () => {
  it('encodes a PNG that a decoder reads back at the requested size and grey', () => {
    const image = solidImage('png', 96, 40);
    expect(image).toMatchObject({ format: 'png', contentType: 'image/png', width: 96, height: 40 });
    const decoded = PNG.sync.read(image.bytes);
    expect([decoded.width, decoded.height]).toEqual([96, 40]);
    expect([...decoded.data.subarray(0, 4)]).toEqual([0xb0, 0xb0, 0xb0, 0xff]);
  });

  it('encodes a JPEG that a decoder reads back at the requested size', () => {
    const image = solidImage('jpeg', 48, 80);
    expect(image.contentType).toBe('image/jpeg');
    const decoded = decodeJpeg(image.bytes);
    expect([decoded.width, decoded.height]).toEqual([48, 80]);
    expect(Math.abs(decoded.data[0] - 0xb0)).toBeLessThanOrEqual(2);
  });

  it('encodes a lossless WebP whose header carries the requested size', () => {
    const image = solidImage('webp', 1536, 1024);
    expect(image.bytes.toString('ascii', 0, 4)).toBe('RIFF');
    expect(image.bytes.readUInt32LE(4)).toBe(image.bytes.length - 8);
    expect(image.bytes.toString('ascii', 8, 16)).toBe('WEBPVP8L');
    expect(image.bytes[20]).toBe(0x2f);
    expect(imageSize(image.bytes)).toMatchObject({ type: 'webp', width: 1536, height: 1024 });
  });

  it('serves a format and size from the cache after the first encoding', () => {
    expect(solidImage('jpeg', 64, 64)).toBe(solidImage('jpeg', 64, 64));
    expect(solidImage('png', 64, 64).base64).toBe(solidImage('png', 64, 64).bytes.toString('base64'));
  });
});
