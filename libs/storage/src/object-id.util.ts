import { randomBytes } from 'node:crypto';

/**
 * An object id is its expiry (Unix seconds, ten digits) then 128 random bits in lower-case hex:
 * `1767225600-9f86d081884c7d659a2feaa0c55ad015`. The random part makes it unguessable. The expiry in
 * front lets a reader refuse an expired object without a lookup, and makes a listing in key order
 * (the order S3 lists in) a listing in expiry order, so a sweep stops at the first live object instead
 * of reading every object's metadata. Hex rather than base64url because a local directory on a
 * case-insensitive file system must not take two ids for one.
 */
const OBJECT_ID = /^(\d{10})-[0-9a-f]{32}$/;
const RANDOM_BYTES = 16;
/** Ten digits of seconds reach the year 2286. */
const MAX_EXPIRY_SECONDS = 9_999_999_999;

export function createObjectId(expiresAtSeconds: number): string {
  if (
    !Number.isSafeInteger(expiresAtSeconds) ||
    expiresAtSeconds < 0 ||
    expiresAtSeconds > MAX_EXPIRY_SECONDS
  ) {
    throw new RangeError(`an object expiry must be whole seconds between 0 and ${MAX_EXPIRY_SECONDS}`);
  }
  const expiry = String(expiresAtSeconds).padStart(10, '0');
  return `${expiry}-${randomBytes(RANDOM_BYTES).toString('hex')}`;
}

/** Strict: anything else (a path, upper case, padding, a suffix) is not an id, so it can never name a file. */
export function isObjectId(value: string): boolean {
  return OBJECT_ID.test(value);
}

/** The expiry encoded in a valid id, in Unix seconds. */
export function expirySecondsOfObjectId(id: string): number {
  const match = OBJECT_ID.exec(id);
  if (!match) throw new TypeError('not an object id');
  return Number(match[1]);
}

/** A valid id that has not expired at `nowMs`; false for anything else. */
export function isLiveObjectId(id: string, nowMs: number): boolean {
  return isObjectId(id) && expirySecondsOfObjectId(id) * 1000 > nowMs;
}
