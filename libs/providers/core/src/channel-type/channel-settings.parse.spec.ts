import { IsIn, IsOptional, IsString, IsUrl } from 'class-validator';
import { NoChannelSettings, parseChannelSettings } from './channel-settings.parse';

/** Settings of the kind a type with a separate control plane would take. */
class ControlPlaneSettings {
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  controlPlaneUrl?: string;

  @IsOptional()
  @IsString()
  region?: string;

  @IsOptional()
  @IsIn(['url', 'base64'])
  resultDelivery?: string;
}

describe('parseChannelSettings', () => {
  it('accepts the fields the schema declares, as an instance of it', () => {
    const parse = parseChannelSettings(ControlPlaneSettings, {
      controlPlaneUrl: 'http://127.0.0.1:4010/control',
      region: 'north',
    });
    expect(parse.ok).toBe(true);
    expect(parse.ok && parse.settings).toBeInstanceOf(ControlPlaneSettings);
    expect(parse.ok && parse.settings).toEqual({
      controlPlaneUrl: 'http://127.0.0.1:4010/control',
      region: 'north',
    });
  });

  it('accepts no settings when every field is optional', () => {
    expect(parseChannelSettings(ControlPlaneSettings, {})).toMatchObject({ ok: true, settings: {} });
  });

  it.each([
    [{ region: 7 }, 'settings.region must be a string'],
    [{ resultDelivery: 'fax' }, 'settings.resultDelivery must be one of the following values: url, base64'],
    [{ controlPlaneUrl: 'ftp://files' }, 'settings.controlPlaneUrl must be a URL address'],
    [{ regoin: 'north' }, 'settings.regoin is not a setting of this channel type'],
  ])('refuses %j: %s', (settings, problem) => {
    expect(parseChannelSettings(ControlPlaneSettings, settings)).toEqual({ ok: false, problem });
  });

  it.each([[null], [[]], ['region=north'], [undefined]])('refuses %j as not an object', (settings) => {
    expect(parseChannelSettings(ControlPlaneSettings, settings)).toEqual({
      ok: false,
      problem: 'settings must be a JSON object',
    });
  });

  it('lets a type without settings take only {}', () => {
    expect(parseChannelSettings(NoChannelSettings, {}).ok).toBe(true);
    expect(parseChannelSettings(NoChannelSettings, { region: 'north' })).toEqual({
      ok: false,
      problem: 'settings.region is not a setting of this channel type',
    });
  });
});
