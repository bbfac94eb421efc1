import { randomBytes } from 'node:crypto';
import { decryptSecret } from '@gateway/routing';
import { toSealedSecretColumns } from './channel-secret.writer';

describe('toSealedSecretColumns', () => {
  const currentKey = randomBytes(32);
  const masterKeys = { currentVersion: 7, currentKey, keys: new Map([[7, currentKey]]) };

  it('seals the secret under the current master key and keeps only its tail in clear', () => {
    const secret = 'upstream-secret-value-1234';
    const columns = toSealedSecretColumns(secret, { masterKeys });
    expect(columns.secretKeyVersion).toBe(7);
    expect(columns.secretTail).toBe('1234');
    expect(columns.secretCiphertext).not.toContain(secret);
    expect(Buffer.from(columns.secretCiphertext, 'base64').toString('latin1')).not.toContain(secret);
    expect(decryptSecret(columns.secretCiphertext, columns.secretKeyVersion, masterKeys.keys)).toBe(secret);
  });
});
