import { randomBytes } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Characters and length a caller-supplied id may have; anything else could forge or bloat log lines. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The caller's `x-request-id` when it is a sane token (lets a client correlate its own logs with
 * ours), otherwise a fresh `req_<random>` id.
 */
export function requestIdFrom(headerValue?: string | readonly string[]): string {
  const presented = typeof headerValue === 'string' ? headerValue : headerValue?.[0];
  if (presented !== undefined && SANE_REQUEST_ID.test(presented)) return presented;
  return newRequestId();
}

/**
 * Unique across instances and restarts without a random draw per request: a random prefix per
 * process (96 bits) and a counter.
 */
const PROCESS_PREFIX = randomBytes(12).toString('base64url');
let sequence = 0;

export function newRequestId(): string {
  sequence += 1;
  return `req_${PROCESS_PREFIX}${sequence.toString(36)}`;
}
