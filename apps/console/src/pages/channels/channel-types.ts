/**
 * The channel types the gateway's registry knows (libs/providers/registry), with the form of their
 * secret. Listed here because the console imports nothing from the server; a type missing from this
 * list can still be typed in ("other"), and the API says whether it exists.
 */
export const CHANNEL_TYPES = [
  { type: 'kappa', secret: 'an API key' },
  { type: 'compat', secret: 'an API key' },
  { type: 'eta', secret: 'an API key (asset library: controlPlaneUrl and controlPlaneKey in settings)' },
  { type: 'beta', secret: 'AccessKey|SecretKey (signed) or a relay key' },
  { type: 'alpha', secret: 'an API key' },
  { type: 'mu', secret: 'an API key' },
  { type: 'omega', secret: 'an API key' },
  { type: 'gamma', secret: 'SubAppId|SecretId|SecretKey' },
  { type: 'lambda', secret: 'an API key' },
] as const;

export function secretHint(type: string): string {
  return (
    CHANNEL_TYPES.find((entry) => entry.type === type)?.secret ??
    'the credential in the form its type expects'
  );
}
