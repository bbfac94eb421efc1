import { parseChannelSettings, secretSettingsOf } from '@gateway/providers-core';
import { EtaChannelSettings, etaControlPlaneOf } from './eta-channel.settings';

describe('EtaChannelSettings', () => {
  const parse = (value: unknown) => parseChannelSettings(EtaChannelSettings, value);

  it('takes no settings at all, or both control-plane settings', () => {
    expect(parse({})).toMatchObject({ ok: true });
    const parsed = parse({
      controlPlaneUrl: 'http://127.0.0.1:4010/eta-control',
      controlPlaneKey: 'ak-1|sk/2+x',
    });
    expect(parsed.ok).toBe(true);
    expect(etaControlPlaneOf((parsed as { settings: EtaChannelSettings }).settings)).toEqual({
      baseUrl: 'http://127.0.0.1:4010/eta-control',
      accessKey: 'ak-1',
      secretKey: 'sk/2+x',
    });
    expect(etaControlPlaneOf({})).toBeUndefined();
  });

  it('marks the control-plane key, and only it, secret: stored encrypted, shown masked', () => {
    expect(secretSettingsOf(EtaChannelSettings)).toEqual(['controlPlaneKey']);
  });

  it.each([
    [
      { controlPlaneKey: 'ak|sk' },
      'settings.controlPlaneUrl must be the http(s) base URL of the asset control plane',
    ],
    [
      { controlPlaneUrl: 'ftp://ctl.test', controlPlaneKey: 'ak|sk' },
      'settings.controlPlaneUrl must be the http(s) base URL of the asset control plane',
    ],
    [{ controlPlaneUrl: 'https://ctl.test' }, 'settings.controlPlaneKey must be AccessKey|SecretKey'],
    [
      { controlPlaneUrl: 'https://ctl.test', controlPlaneKey: 'only-one-secret-part' },
      'settings.controlPlaneKey must be AccessKey|SecretKey',
    ],
    [
      { controlPlaneUrl: 'https://ctl.test', controlPlaneKey: 'ak|sk|third-secret' },
      'settings.controlPlaneKey must be AccessKey|SecretKey',
    ],
    [{ region: 'cn-beijing' }, 'settings.region is not a setting of this channel type'],
  ])('refuses %j naming the expected form, never the value', (value, problem) => {
    const parsed = parse(value);
    expect(parsed).toEqual({ ok: false, problem });
    expect(problem).not.toMatch(/secret-part|third-secret/);
  });
});
