import { GatewayError } from '@gateway/errors';

const DIGITS = /^[0-9]{1,19}$/;

/**
 * The logs page cursor is the id of the last row returned, opaque to the client (base64url), so the
 * next page starts strictly below it whatever rows arrive meanwhile.
 */
export function encodeLogCursor(lastId: bigint): string {
  return Buffer.from(lastId.toString(), 'utf8').toString('base64url');
}

/** The id a cursor points below; a cursor this API did not mint is refused naming `cursor`. */
export function decodeLogCursor(cursor: string): bigint {
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!DIGITS.test(decoded) || encodeLogCursor(BigInt(decoded)) !== cursor) {
    throw GatewayError.invalidRequest('cursor is not a cursor returned by this API.', 'cursor');
  }
  return BigInt(decoded);
}
