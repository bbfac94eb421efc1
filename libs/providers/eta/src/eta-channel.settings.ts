import {
  IsUrl,
  parseAccessKeyPair,
  SecretSetting,
  ValidateBy,
  ValidateIf,
  type AccessKeyPairCredentials,
} from '@gateway/providers-core';

/** The control-plane key's form, as a settings problem names it (never with the value). */
export const ETA_CONTROL_PLANE_KEY_FORM = 'AccessKey|SecretKey';

/** Both control-plane settings are checked as soon as either is given: one alone is half a configuration. */
const eitherGiven = (settings: EtaChannelSettings): boolean =>
  settings.controlPlaneUrl !== undefined || settings.controlPlaneKey !== undefined;

/**
 * Per-channel settings of an eta channel: the asset control plane of theta 2.0 (upstreams.md §6.5),
 * a second endpoint of the same platform with its own base URL and its own `AccessKey|SecretKey` pair
 * (BETA-HMAC-SHA256 signing), beside the data-plane key that is the channel's secret. A channel
 * without them serves everything but the asset library. The key is a secret setting: stored
 * encrypted, shown masked. A bad key is refused naming the expected form only: the validation never
 * writes a value into its message.
 */
export class EtaChannelSettings {
  @ValidateIf(eitherGiven)
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'controlPlaneUrl must be the http(s) base URL of the asset control plane' },
  )
  controlPlaneUrl?: string;

  @SecretSetting()
  @ValidateIf(eitherGiven)
  @ValidateBy(
    {
      name: 'accessKeyPair',
      validator: { validate: (value: unknown) => typeof value === 'string' && parseAccessKeyPair(value).ok },
    },
    { message: `controlPlaneKey must be ${ETA_CONTROL_PLANE_KEY_FORM}` },
  )
  controlPlaneKey?: string;
}

/** What signing a control-plane call takes; undefined for a channel without the control plane. */
export interface EtaControlPlane extends AccessKeyPairCredentials {
  baseUrl: string;
}

export function etaControlPlaneOf(settings: EtaChannelSettings): EtaControlPlane | undefined {
  if (settings.controlPlaneUrl === undefined || settings.controlPlaneKey === undefined) return undefined;
  const pair = parseAccessKeyPair(settings.controlPlaneKey);
  return pair.ok ? { baseUrl: settings.controlPlaneUrl, ...pair.credentials } : undefined;
}
