import { IsOptional, IsString } from 'class-validator';
import { NoChannelSettings, parseChannelSettings } from './channel-settings.parse';
import { SecretSetting, secretSettingsOf } from './secret-setting.decorator';

class ControlPlaneSettings {
  @IsOptional()
  @IsString()
  controlPlaneUrl?: string;

  @SecretSetting()
  @IsOptional()
  @IsString()
  controlPlaneKey?: string;

  @SecretSetting()
  @IsOptional()
  @IsString()
  signingKey?: string;
}

class RegionSettings {
  @IsOptional()
  @IsString()
  region?: string;
}

describe('SecretSetting', () => {
  it('lists the fields a schema marks secret, and only those', () => {
    expect(secretSettingsOf(ControlPlaneSettings)).toEqual(['controlPlaneKey', 'signingKey']);
  });

  it('lists none for a schema without secret settings', () => {
    expect(secretSettingsOf(RegionSettings)).toEqual([]);
    expect(secretSettingsOf(NoChannelSettings)).toEqual([]);
  });

  it('leaves the field a setting the schema validates', () => {
    expect(parseChannelSettings(ControlPlaneSettings, { controlPlaneKey: 'ak|sk' }).ok).toBe(true);
    expect(parseChannelSettings(ControlPlaneSettings, { controlPlaneKey: 7 })).toEqual({
      ok: false,
      problem: 'settings.controlPlaneKey must be a string',
    });
  });
});
