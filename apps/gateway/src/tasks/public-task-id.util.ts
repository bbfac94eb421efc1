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
