import { createObjectId, expirySecondsOfObjectId, isLiveObjectId, isObjectId } from './object-id.util';

const EXPIRY = 1_893_456_000;

describe('object ids', () => {
  it('start with the zero-padded expiry and carry 128 random bits in lower-case hex', () => {
    const id = createObjectId(EXPIRY);

    expect(id).toMatch(/^1893456000-[0-9a-f]{32}$/);
    expect(createObjectId(42)).toMatch(/^0000000042-/);
    expect(expirySecondsOfObjectId(id)).toBe(EXPIRY);
  });

  it('never repeat', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => createObjectId(EXPIRY)));

    expect(ids.size).toBe(10_000);
  });

  it('sort by expiry as strings do', () => {
    const ids = [createObjectId(EXPIRY + 1), createObjectId(999_999_999), createObjectId(EXPIRY)];

    expect([...ids].sort().map(expirySecondsOfObjectId)).toEqual([999_999_999, EXPIRY, EXPIRY + 1]);
  });

  it('refuse an expiry that ten digits of seconds cannot hold', () => {
    expect(() => createObjectId(-1)).toThrow(RangeError);
    expect(() => createObjectId(10_000_000_000)).toThrow(RangeError);
    expect(() => createObjectId(1.5)).toThrow(RangeError);
  });

  it.each([
    '',
    '../1893456000-0123456789abcdef0123456789abcdef',
    '1893456000-0123456789abcdef0123456789abcdef/..',
    '1893456000-0123456789ABCDEF0123456789ABCDEF',
    '1893456000-0123456789abcdef0123456789abcde',
    '1893456000-0123456789abcdef0123456789abcdef0',
    '1893456000-0123456789abcdef0123456789abcdef.json',
    '189345600-0123456789abcdef0123456789abcdef',
    '1893456000_0123456789abcdef0123456789abcdef',
    '1893456000-0123456789abcdef0123456789abcdef\n',
  ])('are validated strictly: %j is not one', (value) => {
    expect(isObjectId(value)).toBe(false);
    expect(isLiveObjectId(value, 0)).toBe(false);
  });

  it('are live until their expiry second begins', () => {
    const id = createObjectId(EXPIRY);

    expect(isLiveObjectId(id, EXPIRY * 1000 - 1)).toBe(true);
    expect(isLiveObjectId(id, EXPIRY * 1000)).toBe(false);
  });
});
