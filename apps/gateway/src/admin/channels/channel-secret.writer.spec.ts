import { randomBytes } from 'node:crypto';
import { decryptSecret, isSealedSetting } from '@gateway/routing';
import {
  toSealedSecretColumns,
  toSealedSettingsColumn,
  withKeptSecretSettings,
} from './channel-secret.writer';

const currentKey = randomBytes(32);
const masterKeys = { currentVersion: 7, currentKey, keys: new Map([[7, currentKey]]) };
const CONTROL_PLANE = {
  controlPlaneUrl: 'http://127.0.0.1:4010/eta-control',
  controlPlaneKey: 'ak-1|sk-stored-77',
};

describe('toSealedSecretColumns', () => {
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

describe('toSealedSettingsColumn', () => {
  it("seals the type's secret settings under the current master key and leaves the others in clear", () => {
    const column = toSealedSettingsColumn('eta', CONTROL_PLANE, { masterKeys });
    expect(column.controlPlaneUrl).toBe(CONTROL_PLANE.controlPlaneUrl);
    const sealed = column.controlPlaneKey;
    expect(isSealedSetting(sealed) && sealed.keyVersion).toBe(7);
    expect(isSealedSetting(sealed) && decryptSecret(sealed.$encrypted, 7, masterKeys.keys)).toBe(
      CONTROL_PLANE.controlPlaneKey,
    );
    expect(JSON.stringify(column)).not.toContain('sk-stored');
  });

  it('leaves the settings of a type without secret settings as sent', () => {
    expect(toSealedSettingsColumn('beta', { region: 'north' }, { masterKeys })).toEqual({ region: 'north' });
  });
});

describe('withKeptSecretSettings', () => {
  const stored = () => CONTROL_PLANE;

  it('keeps the stored secret settings that sent settings leave out', () => {
    const sent = { controlPlaneUrl: 'http://127.0.0.1:4011/eta-control' };
    expect(withKeptSecretSettings('eta', sent, stored)).toEqual({
      controlPlaneUrl: 'http://127.0.0.1:4011/eta-control',
      controlPlaneKey: CONTROL_PLANE.controlPlaneKey,
    });
  });

  it('takes a sent secret setting, removes one sent as null, and reads nothing stored then', () => {
    const unread = () => {
      throw new Error('the stored settings were read');
    };
    expect(
      withKeptSecretSettings('eta', { ...CONTROL_PLANE, controlPlaneKey: 'ak-2|sk-new-88' }, unread),
    ).toEqual({ ...CONTROL_PLANE, controlPlaneKey: 'ak-2|sk-new-88' });
    expect(withKeptSecretSettings('eta', { controlPlaneKey: null }, unread)).toEqual({});
  });

  it('keeps nothing the stored settings lack, and nothing for a type without secret settings', () => {
    expect(withKeptSecretSettings('eta', {}, () => ({}))).toEqual({});
    expect(withKeptSecretSettings('beta', { region: null }, stored)).toEqual({ region: null });
  });
});
