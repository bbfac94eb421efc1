import { randomBytes } from 'node:crypto';
import { NoChannelSettings, SecretSetting } from '@gateway/providers-core';
import { SecretDecryptionError } from './channel-secret.cipher';
import { isSealedSetting, openSecretSettings, sealSecretSettings } from './secret-settings.sealing';

class ControlPlaneSettings {
  controlPlaneUrl?: string;

  @SecretSetting()
  controlPlaneKey?: string;
}

const KEY_V1 = randomBytes(32);
const KEY_V2 = randomBytes(32);
const CONTROL_KEY = 'control-ak|control-sk-9f3e';
const SETTINGS = { controlPlaneUrl: 'http://127.0.0.1:4010/control', controlPlaneKey: CONTROL_KEY };

describe('sealSecretSettings', () => {
  it('seals the secret settings under the master key, with their tail, and leaves the others', () => {
    const sealed = sealSecretSettings(ControlPlaneSettings, SETTINGS, { key: KEY_V2, version: 2 });

    expect(sealed.controlPlaneUrl).toBe(SETTINGS.controlPlaneUrl);
    expect(sealed.controlPlaneKey).toEqual({ $encrypted: expect.any(String), keyVersion: 2, tail: '9f3e' });
    expect(isSealedSetting(sealed.controlPlaneKey)).toBe(true);
    expect(JSON.stringify(sealed)).not.toContain('control-sk');
    expect(SETTINGS.controlPlaneKey).toBe(CONTROL_KEY);
  });

  it('seals nothing for a schema without secret settings, and no absent field', () => {
    expect(sealSecretSettings(NoChannelSettings, SETTINGS, { key: KEY_V1, version: 1 })).toEqual(SETTINGS);
    expect(sealSecretSettings(ControlPlaneSettings, {}, { key: KEY_V1, version: 1 })).toEqual({});
  });
});

describe('openSecretSettings', () => {
  const keyring = new Map([
    [1, KEY_V1],
    [2, KEY_V2],
  ]);

  it('decrypts what was sealed under any master key of the keyring', () => {
    const older = sealSecretSettings(ControlPlaneSettings, SETTINGS, { key: KEY_V1, version: 1 });
    const newer = sealSecretSettings(ControlPlaneSettings, SETTINGS, { key: KEY_V2, version: 2 });

    expect(openSecretSettings(ControlPlaneSettings, older, keyring)).toEqual(SETTINGS);
    expect(openSecretSettings(ControlPlaneSettings, newer, keyring)).toEqual(SETTINGS);
  });

  it('passes settings without secret fields, and anything but an object, through for the parser', () => {
    expect(openSecretSettings(ControlPlaneSettings, { controlPlaneUrl: 'x' }, keyring)).toEqual({
      controlPlaneUrl: 'x',
    });
    expect(openSecretSettings(ControlPlaneSettings, null, keyring)).toBeNull();
  });

  it('refuses a secret setting stored in clear, naming the field and not the value', () => {
    const open = () => openSecretSettings(ControlPlaneSettings, SETTINGS, keyring);

    expect(open).toThrow(SecretDecryptionError);
    expect(open).toThrow('settings.controlPlaneKey is not stored encrypted; send it again');
    expect(open).not.toThrow(/control-sk/);
  });

  it('refuses a secret setting whose master key is gone or whose version was altered, naming the field', () => {
    const sealed = sealSecretSettings(ControlPlaneSettings, SETTINGS, { key: KEY_V1, version: 1 });
    expect(() => openSecretSettings(ControlPlaneSettings, sealed, new Map([[2, KEY_V2]]))).toThrow(
      'channel secret cannot be decrypted: settings.controlPlaneKey: no master key of version 1',
    );

    const relabelled = { controlPlaneKey: { ...(sealed.controlPlaneKey as object), keyVersion: 2 } };
    expect(() => openSecretSettings(ControlPlaneSettings, relabelled, keyring)).toThrow(
      /^channel secret cannot be decrypted: settings\.controlPlaneKey: authentication failed/,
    );
  });
});
