import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Below this length, showing four characters would give away too much of the secret. */
const MIN_LENGTH_FOR_TAIL = 8;

export interface EncryptedSecret {
  /** base64 of iv | ciphertext | tag. */
  ciphertext: string;
  /** Version of the master key used; stored beside the ciphertext. */
  version: number;
  /** Last four characters of the plaintext for a masked display; empty for short secrets. */
  tail: string;
}

export interface MasterKey {
  key: Buffer;
  version: number;
}

/** A secret that cannot be decrypted: unknown key version, wrong key, or tampered or truncated data. */
export class SecretDecryptionError extends Error {
  constructor(readonly reason: string) {
    super(`channel secret cannot be decrypted: ${reason}`);
    this.name = 'SecretDecryptionError';
  }
}

/**
 * AES-256-GCM under the master key. The key version is bound as additional authenticated data, so a
 * ciphertext relabelled with another version fails to decrypt instead of decrypting wrongly.
 */
export function encryptSecret(plaintext: string, masterKey: MasterKey): EncryptedSecret {
  assertKeyLength(masterKey.key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, masterKey.key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(versionLabel(masterKey.version));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return {
    ciphertext: Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64'),
    version: masterKey.version,
    tail: plaintext.length >= MIN_LENGTH_FOR_TAIL ? plaintext.slice(-4) : '',
  };
}

/** Decrypts with the key of `version` from the keyring (current and previous master keys). */
export function decryptSecret(
  ciphertext: string,
  version: number,
  keyring: ReadonlyMap<number, Buffer>,
): string {
  const key = keyring.get(version);
  if (key === undefined) throw new SecretDecryptionError(`no master key of version ${version}`);
  assertKeyLength(key);
  const sealed = Buffer.from(ciphertext, 'base64');
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new SecretDecryptionError('ciphertext too short');
  const decipher = createDecipheriv(ALGORITHM, key, sealed.subarray(0, IV_BYTES), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(versionLabel(version));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  try {
    const body = sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretDecryptionError('authentication failed (wrong key or altered data)');
  }
}

function versionLabel(version: number): Buffer {
  return Buffer.from(`channel-secret:v${version}`, 'utf8');
}

function assertKeyLength(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new Error(`master key must be ${KEY_BYTES} bytes, got ${key.length}`);
}
