import { hasUnstorableText } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';

/** What toISOString writes for years 0000–9999: Postgres can compare it (a six-digit year it may not). */
const STORABLE_TIME = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$/;

/** Where a page of accounts ended: the last account's creation time and id (the order's tie-break). */
export interface AccountCursor {
  createdAt: Date;
  id: string;
}

/**
 * Accounts are listed newest first by (created_at, id); the cursor carries both, opaque to the client
 * (base64url of a JSON pair), so the next page starts strictly after the last account seen whatever
 * accounts are created meanwhile.
 */
export function encodeAccountCursor({ createdAt, id }: AccountCursor): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id]), 'utf8').toString('base64url');
}

/** The position a cursor names; a cursor this API did not mint is refused naming `cursor`. */
export function decodeAccountCursor(cursor: string): AccountCursor {
  const position = readPair(cursor);
  // Re-encoding must give the cursor back: anything else (padding, spaces, a hand-made pair) was not
  // minted here.
  if (!position || encodeAccountCursor(position) !== cursor) {
    throw GatewayError.invalidRequest('cursor is not a cursor returned by this API.', 'cursor');
  }
  return position;
}

function readPair(cursor: string): AccountCursor | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
  const [time, id] = parsed as unknown[];
  // Both reach Postgres as parameters: a NUL or a year it cannot store would fail the statement (a 500).
  if (typeof time !== 'string' || !STORABLE_TIME.test(time)) return undefined;
  if (typeof id !== 'string' || hasUnstorableText(id)) return undefined;
  const createdAt = new Date(time);
  return Number.isNaN(createdAt.getTime()) ? undefined : { createdAt, id };
}
