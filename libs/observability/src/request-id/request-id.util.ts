import { randomFillSync } from 'node:crypto';

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

/** 96 bits: no collision across instances and restarts, 16 characters of base64url (3 bytes → 4). */
const RANDOM_BYTES = 12;
const RANDOM_CHARACTERS = 16;
// perf-machinery: request-id-batch (docs/performance-machinery.md)
/**
 * Random bytes are drawn and encoded for many ids at once: one crypto call and one encoding per
 * request would cost several times the old counter on the hot path of every request. An id then
 * takes its part of the encoded batch (a slice, no copy).
 */
const IDS_PER_DRAW = 256;
const randomPool = Buffer.alloc(RANDOM_BYTES * IDS_PER_DRAW);
let encodedPool = '';
let idsTaken = IDS_PER_DRAW;

function nextRandomPart(): string {
  if (idsTaken === IDS_PER_DRAW) {
    encodedPool = randomFillSync(randomPool).toString('base64url');
    idsTaken = 0;
  }
  const start = idsTaken * RANDOM_CHARACTERS;
  idsTaken += 1;
  return encodedPool.slice(start, start + RANDOM_CHARACTERS);
}

/** `req_` and the time in base 36, encoded once per millisecond: Number#toString(36) is slow. */
let prefixMillis = 0;
let prefix = '';

function timePrefix(): string {
  const now = Date.now();
  if (now !== prefixMillis) {
    prefixMillis = now;
    prefix = `req_${now.toString(36)}`;
  }
  return prefix;
}

/**
 * The time in milliseconds (8 base-36 characters until 2059) then a random part: unguessable, so a
 * client learns nothing of the gateway's traffic between two of its own requests (a counter would
 * tell it), and roughly in creation order, so the unique index of the request log keeps growing at
 * one end rather than taking inserts at random pages.
 */
export function newRequestId(): string {
  return timePrefix() + nextRandomPart();
}
