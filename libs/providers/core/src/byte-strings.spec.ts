import { ByteStrings } from './byte-strings';

describe('ByteStrings', () => {
  it('holds printable ASCII only, without a quote or a backslash', () => {
    expect(ByteStrings.canHold(Buffer.from('data:image/png;base64,iVBORw0KGgo= ~'))).toBe(true);
    for (const text of ['tab\there', 'line\nfeed', 'quote"', 'back\\slash', 'é', '\u007f', '\u0000']) {
      expect(ByteStrings.canHold(Buffer.from(text))).toBe(false);
    }
  });

  it('answers a token per value, which reads back the bytes it stands for', () => {
    const byteStrings = new ByteStrings();
    const first = Buffer.from('data:image/png;base64,AAAA');
    const second = Buffer.from('data:image/png;base64,BBBB');
    const [firstToken, secondToken] = [byteStrings.add(first), byteStrings.add(second)];
    expect(firstToken).not.toBe(secondToken);
    expect(ByteStrings.canHold(Buffer.from(firstToken))).toBe(true);
    expect(byteStrings.bytesOf(firstToken)).toBe(first);
    expect(byteStrings.bytesOf(secondToken)).toBe(second);
    expect(byteStrings.size).toBe(2);
  });

  it('reads nothing for any other string: a plain value, a token of an index it never gave, a token with more after it', () => {
    const byteStrings = new ByteStrings();
    const token = byteStrings.add(Buffer.from('data:x'));
    const other = new ByteStrings();
    expect(byteStrings.bytesOf('data:x')).toBeUndefined();
    expect(other.bytesOf(token)).toBeUndefined();
    expect(byteStrings.bytesOf(`${token}0`)).toBeUndefined();
    expect(byteStrings.bytesOf(`${token}x`)).toBeUndefined();
    expect(byteStrings.bytesOf(`x${token}`)).toBeUndefined();
  });

  it('reads a held value as text: its length and any slice, ends past the end cut to it', () => {
    const byteStrings = new ByteStrings();
    const text = byteStrings.textOf(byteStrings.add(Buffer.from('data:image/png;base64,QUJD')));
    expect(text.length).toBe(26);
    expect(text.slice(0, 5)).toBe('data:');
    expect(text.slice(22)).toBe('QUJD');
    expect(text.slice(24, 100)).toBe('JD');
    expect(byteStrings.textOf('plain')).toBe('plain');
  });

  it("cuts a JSON text into pieces that make the text of the values' strings", () => {
    const byteStrings = new ByteStrings();
    const image = 'data:image/png;base64,iVBORw0KGgo=';
    const token = byteStrings.add(Buffer.from(image));
    const other = byteStrings.add(Buffer.from('data:image/webp;base64,UklGR'));
    const request = {
      images: [token, 'https://images.example.test/a.png'],
      subjects: [{ images: [other, token] }],
    };
    const pieces = byteStrings.piecesOf(JSON.stringify(request));
    expect(pieces.filter((piece) => Buffer.isBuffer(piece))).toHaveLength(3);
    const text = Buffer.concat(pieces.map((piece) => Buffer.from(piece))).toString();
    expect(JSON.parse(text)).toEqual({
      images: [image, 'https://images.example.test/a.png'],
      subjects: [{ images: ['data:image/webp;base64,UklGR', image] }],
    });
  });

  it('leaves a text without tokens whole, and a token written inside a longer string alone', () => {
    const byteStrings = new ByteStrings();
    const token = byteStrings.add(Buffer.from('data:x'));
    expect(byteStrings.piecesOf('{"a":1}')).toEqual(['{"a":1}']);
    const inside = JSON.stringify({ note: `see ${token}` });
    expect(byteStrings.piecesOf(inside)).toEqual([inside]);
  });
});
