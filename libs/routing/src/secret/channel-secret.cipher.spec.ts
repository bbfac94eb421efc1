import { randomBytes } from 'node:crypto';
import { SecretDecryptionError, decryptSecret, encryptSecret } from './channel-secret.cipher';

const KEY_V1 = randomBytes(32);
const KEY_V2 = randomBytes(32);
const SECRET = 'channel-secret-value-1234';

describe('channel secret cipher', () => {
  it('round-trips a secret and reports its version and tail', () => {
    const encrypted = encryptSecret(SECRET, { key: KEY_V1, version: 1 });

    expect(encrypted.version).toBe(1);
    expect(encrypted.tail).toBe('1234');
    expect(encrypted.ciphertext).not.toContain(SECRET);
    expect(decryptSecret(encrypted.ciphertext, 1, new Map([[1, KEY_V1]]))).toBe(SECRET);
  });

  it('lays the ciphertext out as base64 of a 12-byte iv, the body and a 16-byte tag', () => {
    const { ciphertext } = encryptSecret('αβγ|sub|key', { key: KEY_V1, version: 1 });

    expect(Buffer.from(ciphertext, 'base64')).toHaveLength(12 + Buffer.byteLength('αβγ|sub|key') + 16);
    expect(decryptSecret(ciphertext, 1, new Map([[1, KEY_V1]]))).toBe('αβγ|sub|key');
  });

  it('uses a fresh iv each time', () => {
    const first = encryptSecret(SECRET, { key: KEY_V1, version: 1 });
    const second = encryptSecret(SECRET, { key: KEY_V1, version: 1 });

    expect(first.ciphertext).not.toBe(second.ciphertext);
  });

  it.each([
    ['the iv', 0],
    ['the body', 14],
    ['the tag', -1],
  ])('detects a change to %s', (_part, index) => {
    const sealed = Buffer.from(encryptSecret(SECRET, { key: KEY_V1, version: 1 }).ciphertext, 'base64');
    const position = index < 0 ? sealed.length + index : index;
    sealed[position] ^= 0x01;

    expect(() => decryptSecret(sealed.toString('base64'), 1, new Map([[1, KEY_V1]]))).toThrow(
      SecretDecryptionError,
    );
  });

  it('refuses truncated data', () => {
    expect(() => decryptSecret(Buffer.alloc(20).toString('base64'), 1, new Map([[1, KEY_V1]]))).toThrow(
      'ciphertext too short',
    );
  });

  it('decrypts secrets of every key version in the keyring after a rotation', () => {
    const old = encryptSecret('written-before-rotation', { key: KEY_V1, version: 1 });
    const fresh = encryptSecret('written-after-rotation', { key: KEY_V2, version: 2 });
    const keyring = new Map([
      [1, KEY_V1],
      [2, KEY_V2],
    ]);

    expect(decryptSecret(old.ciphertext, old.version, keyring)).toBe('written-before-rotation');
    expect(decryptSecret(fresh.ciphertext, fresh.version, keyring)).toBe('written-after-rotation');
  });

  it('refuses a version missing from the keyring', () => {
    const old = encryptSecret(SECRET, { key: KEY_V1, version: 1 });

    expect(() => decryptSecret(old.ciphertext, 1, new Map([[2, KEY_V2]]))).toThrow(
      'no master key of version 1',
    );
  });

  it('refuses a ciphertext relabelled with another version, even under the same key', () => {
    const encrypted = encryptSecret(SECRET, { key: KEY_V1, version: 1 });
    const keyring = new Map([
      [1, KEY_V1],
      [2, KEY_V1],
    ]);

    expect(() => decryptSecret(encrypted.ciphertext, 2, keyring)).toThrow(SecretDecryptionError);
  });

  it('refuses the wrong key without revealing the secret', () => {
    const encrypted = encryptSecret(SECRET, { key: KEY_V1, version: 1 });

    expect(() => decryptSecret(encrypted.ciphertext, 1, new Map([[1, KEY_V2]]))).toThrow(
      /^channel secret cannot be decrypted: authentication failed/,
    );
  });

  it('refuses a master key of the wrong size', () => {
    expect(() => encryptSecret(SECRET, { key: randomBytes(16), version: 1 })).toThrow(
      'master key must be 32 bytes',
    );
  });

  it('keeps no tail for short secrets', () => {
    expect(encryptSecret('short', { key: KEY_V1, version: 1 }).tail).toBe('');
  });
});
