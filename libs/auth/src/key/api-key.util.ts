import { hash, randomBytes } from 'node:crypto';

const BASE62_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const PREFIX_ID_LENGTH = 8;
const SECRET_LENGTH = 40;
const API_KEY_PATTERN = /^gk_[A-Za-z0-9]{8}_[A-Za-z0-9]{32,128}$/;

export interface GeneratedApiKey {
  /** The whole key, shown to its owner once and never stored. */
  plaintext: string;
  /** `gk_<8 chars>`: visible, non-secret, unique; stored for lookup and display. */
  prefix: string;
  /** SHA-256 hex of the whole plaintext: what the database stores. */
  hash: string;
}

/** A new inference key: `gk_<8-char prefix id>_<40-char base62 secret>` (about 238 bits of secret). */
export function generateApiKey(): GeneratedApiKey {
  const prefix = `gk_${randomBase62(PREFIX_ID_LENGTH)}`;
  const plaintext = `${prefix}_${randomBase62(SECRET_LENGTH)}`;
  return { plaintext, prefix, hash: hashApiKey(plaintext) };
}

// perf-machinery: api-key-one-shot-hash (docs/performance-machinery.md)
/** One-shot hashing: a third of createHash's cost, which showed in the per-request profile. */
export function hashApiKey(plaintext: string): string {
  return hash('sha256', plaintext, 'hex');
}

/** Whether a string has the shape of a gateway key (no lookup; a cheap pre-check and a log filter). */
export function looksLikeApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/**
 * Uniform base62 from random bytes: bytes at or above 248 (= 4 × 62) are dropped, so the modulo
 * introduces no bias towards the first characters of the alphabet.
 */
function randomBase62(length: number): string {
  let result = '';
  while (result.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && result.length < length) result += BASE62_ALPHABET[byte % 62];
    }
  }
  return result;
}
