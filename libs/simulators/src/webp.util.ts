/**
 * A valid lossless WebP (VP8L) of the requested size filled with one grey level. No WebP encoder is
 * installed, and a solid image needs none: when each of the five prefix codes holds a single symbol,
 * every pixel decodes from zero bits, so the whole file is a header of a few dozen bytes whatever the
 * size (the layout is the VP8L bitstream specification's, RFC 9649 §3).
 */
export function encodeSolidWebp(width: number, height: number, grey: number): Buffer {
  const bits = new LsbBitWriter();
  bits.write(0x2f, 8); // VP8L signature
  bits.write(width - 1, 14);
  bits.write(height - 1, 14);
  bits.write(0, 1); // alpha is not used
  bits.write(0, 3); // version
  bits.write(0, 1); // no transform
  bits.write(0, 1); // no colour cache
  bits.write(0, 1); // no meta prefix codes
  for (const symbol of [grey, grey, grey, 0xff]) writeSingleSymbolCode(bits, symbol); // green, red, blue, alpha
  writeSingleSymbolCode(bits, 0); // distance
  const image = bits.toBuffer();
  const padding = image.length % 2;
  const riff = Buffer.alloc(20 + image.length + padding);
  riff.write('RIFF', 0, 'ascii');
  riff.writeUInt32LE(12 + image.length + padding, 4);
  riff.write('WEBPVP8L', 8, 'ascii');
  riff.writeUInt32LE(image.length, 16);
  image.copy(riff, 20);
  return riff;
}

/** A "simple" prefix code with one symbol: flag, symbol count − 1, 8-bit form, the symbol. */
function writeSingleSymbolCode(bits: LsbBitWriter, symbol: number): void {
  bits.write(1, 1);
  bits.write(0, 1);
  bits.write(1, 1);
  bits.write(symbol, 8);
}

/** VP8L packs values least significant bit first. */
class LsbBitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private used = 0;

  write(value: number, count: number): void {
    for (let bit = 0; bit < count; bit += 1) {
      this.current |= ((value >>> bit) & 1) << this.used;
      this.used += 1;
      if (this.used === 8) this.flush();
    }
  }

  toBuffer(): Buffer {
    if (this.used > 0) this.flush();
    return Buffer.from(this.bytes);
  }

  private flush(): void {
    this.bytes.push(this.current);
    this.current = 0;
    this.used = 0;
  }
}
