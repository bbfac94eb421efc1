import { crc32, inflateSync } from 'node:zlib';
import { encodeSolidPng } from './png.util';

describe('encodeSolidPng', () => {
  it('encodes a valid PNG of the requested size', () => {
    const png = encodeSolidPng(64, 32, 0xb0);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const chunks: Array<{ type: string; data: Buffer }> = [];
    for (let offset = 8; offset < png.length;) {
      const length = png.readUInt32BE(offset);
      const typeAndData = png.subarray(offset + 4, offset + 8 + length);
      expect(png.readUInt32BE(offset + 8 + length)).toBe(crc32(typeAndData));
      chunks.push({ type: typeAndData.subarray(0, 4).toString('ascii'), data: typeAndData.subarray(4) });
      offset += 12 + length;
    }
    expect(chunks.map((chunk) => chunk.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(chunks[0].data.readUInt32BE(0)).toBe(64);
    expect(chunks[0].data.readUInt32BE(4)).toBe(32);
    const pixels = inflateSync(chunks[1].data);
    expect(pixels).toHaveLength(32 * (1 + 64 * 3));
    expect(pixels[1]).toBe(0xb0);
  });
});
