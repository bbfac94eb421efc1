import { encode as encodeJpeg } from 'jpeg-js';
import { PNG } from 'pngjs';

/** Images built in the specs, as the data: URLs the alpha family takes. For specs only. */
export function dataUrlOf(mimeType: string, bytes: Buffer): string {
  return `data:${mimeType};base64,${bytes.toString('base64')}`;
}

/**
 * Filter type 0 (none): pngjs's default tries all five filters per row, and its filters call
 * `Math.abs` per byte, which under Jest (its sandbox global answers every global name) costs about
 * 200 times what it does in plain Node: this file's images took 11 s of a 14 s spec that way.
 */
export function pngBytes(width: number, height: number): Buffer {
  return PNG.sync.write(new PNG({ width, height }), { filterType: 0 });
}

export function pngDataUrl(width: number, height: number): string {
  return dataUrlOf('image/png', pngBytes(width, height));
}

/**
 * A JPEG, optionally with `paddingBytes` of APP1 segments before its frame header, as a camera's
 * EXIF data sits there: the header reader must look past them.
 */
export function jpegBytes(width: number, height: number, paddingBytes = 0): Buffer {
  const encoded = encodeJpeg({ data: Buffer.alloc(width * height * 4, 0x80), width, height }, 80).data;
  const segments: Buffer[] = [];
  for (let left = paddingBytes; left > 0; left -= 65533) {
    const length = Math.min(left, 65533);
    const segment = Buffer.alloc(length + 4);
    segment.writeUInt16BE(0xffe1, 0);
    segment.writeUInt16BE(length + 2, 2);
    segments.push(segment);
  }
  return Buffer.concat([encoded.subarray(0, 2), ...segments, encoded.subarray(2)]);
}

/** A lossless WebP header (RIFF, VP8L chunk, 14-bit sides): all a header reader looks at. */
export function webpBytes(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(30);
  bytes.write('RIFF', 0, 'latin1');
  bytes.writeUInt32LE(22, 4);
  bytes.write('WEBPVP8L', 8, 'latin1');
  bytes.writeUInt32LE(10, 16);
  bytes[20] = 0x2f;
  bytes.writeUInt32LE(((height - 1) << 14) | (width - 1), 21);
  return bytes;
}

/** A GIF header: a format the family refuses. */
export function gifBytes(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(13);
  bytes.write('GIF89a', 0, 'latin1');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

/** A PNG header followed by zeros up to `totalBytes`: a file of that size without encoding one. */
export function paddedPngBytes(totalBytes: number): Buffer {
  const header = pngBytes(256, 256);
  const bytes = Buffer.alloc(totalBytes);
  header.copy(bytes, 0, 0, Math.min(header.length, totalBytes));
  return bytes;
}
