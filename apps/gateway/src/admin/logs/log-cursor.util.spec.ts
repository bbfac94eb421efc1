import { GatewayError } from '@gateway/errors';
import { decodeLogCursor, encodeLogCursor } from './log-cursor.util';

describe('log cursor', () => {
  it('round-trips ids beyond the safe integer range', () => {
    const id = 9007199254740993n;
    const cursor = encodeLogCursor(id);
    expect(cursor).not.toContain('9007199254740993');
    expect(decodeLogCursor(cursor)).toBe(id);
  });

  it.each([
    '',
    'not a cursor',
    Buffer.from('12a').toString('base64url'),
    Buffer.from('-5').toString('base64url'),
  ])('refuses %j naming the cursor field', (cursor) => {
    const attempt = () => decodeLogCursor(cursor);
    expect(attempt).toThrow(GatewayError);
    expect(attempt).toThrow(expect.objectContaining({ param: 'cursor', httpStatus: 400 }));
  });
});
