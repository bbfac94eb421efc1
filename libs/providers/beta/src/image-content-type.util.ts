/**
 * The image type of a file the wire sent as Base64, from its first bytes. Hand-written rather than
 * with `file-type`: the wire sends PNG, JPEG or WebP, three fixed signatures, and the adapter must
 * stay synchronous.
 */
export function imageContentTypeOf(bytes: Buffer): string {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (bytes.subarray(0, 3).equals(JPEG_SIGNATURE)) return 'image/jpeg';
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp';
  }
  return 'application/octet-stream';
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);
