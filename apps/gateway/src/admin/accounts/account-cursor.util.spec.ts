import { GatewayError } from '@gateway/errors';
import { decodeAccountCursor, encodeAccountCursor } from './account-cursor.util';

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

describe('account cursor', () => {
  it('round-trips the creation time to the millisecond and any id', () => {
    const position = { createdAt: new Date('2026-03-01T12:00:00.123Z'), id: 'acct_"quoted"|piped' };
    const cursor = encodeAccountCursor(position);
    expect(cursor).not.toContain('acct_');
    expect(decodeAccountCursor(cursor)).toEqual(position);
  });

  it.each([
    ['an empty cursor', ''],
    ['text that is not base64url JSON', 'not a cursor'],
    ['a log cursor', base64url('12345')],
    ['a pair of the wrong types', base64url('[1, 2]')],
    ['three members', base64url('["2026-01-01T00:00:00.000Z","a","b"]')],
    ['a time that is not ISO', base64url('["yesterday","acct_1"]')],
    ['a year Postgres cannot store', base64url('["-271821-04-20T00:00:00.000Z","acct_1"]')],
    ['an id holding NUL', base64url('["2026-01-01T00:00:00.000Z","acct_\\u0000"]')],
    ['a valid pair written by hand with spaces', base64url('[ "2026-01-01T00:00:00.000Z", "acct_1" ]')],
    ['a huge cursor', 'A'.repeat(10_000)],
  ])('refuses %s naming the cursor field', (_case, cursor) => {
    const attempt = () => decodeAccountCursor(cursor);
    expect(attempt).toThrow(GatewayError);
    expect(attempt).toThrow(expect.objectContaining({ param: 'cursor', httpStatus: 400 }));
  });
});
