import { randomBytes } from 'node:crypto';

/** Prefixes of the ids the admin API mints; the prefix tells an operator what an id names. */
export type AdminIdPrefix = 'ch' | 'key' | 'acct';

const ID_RANDOM_BYTES = 12;

/** `<prefix>_<24 hex characters>`: 96 random bits, so ids never collide in practice and cannot be guessed. */
export function newAdminId(prefix: AdminIdPrefix): string {
  return `${prefix}_${randomBytes(ID_RANDOM_BYTES).toString('hex')}`;
}
