import { randomBytes } from 'node:crypto';

/** Random bytes of a public task id: 128 bits, so ids cannot be guessed or enumerated. */
const ID_BYTES = 16;

/**
 * A task's public id: the route family's prefix and 128 random bits, URL-safe. It never reveals the
 * upstream's task id (the row keeps that in its handle).
 */
export function newPublicTaskId(prefix: string): string {
  return `${prefix}_${randomBytes(ID_BYTES).toString('base64url')}`;
}

/** base64url of ID_BYTES bytes, unpadded. */
const RANDOM_PART = /^[A-Za-z0-9_-]{22}$/;

/**
 * Whether `value` has the shape of one of `prefix`'s public ids. A query for anything else (a 10 KB
 * string, text with NUL that Postgres refuses) names no task, and is answered so without a lookup.
 */
export function isPublicTaskId(value: string, prefix: string): boolean {
  return value.startsWith(`${prefix}_`) && RANDOM_PART.test(value.slice(prefix.length + 1));
}
