/**
 * A channel's secret parsed into what its wire needs. A failure names the form the type expects
 * (a constant of this module), never anything of the secret, so it can be shown to an operator.
 */
export type CredentialsParse<Credentials> =
  { ok: true; credentials: Credentials } | { ok: false; expected: string };

export interface PlainKeyCredentials {
  apiKey: string;
}

export interface AccessKeyPairCredentials {
  accessKey: string;
  secretKey: string;
}

export interface SubAppCredentials {
  subAppId: string;
  secretId: string;
  secretKey: string;
  /** The fourth part, when the channel pins a region. */
  region?: string;
}

export const PLAIN_KEY_FORM = 'a single API key (no spaces, line breaks or "|")';
export const ACCESS_KEY_PAIR_FORM = 'AccessKey|SecretKey';
export const SUB_APP_KEYS_FORM = 'SubAppId|SecretId|SecretKey or SubAppId|SecretId|SecretKey|Region';

/**
 * One part of a key: printable ASCII without space and without `|`, which separates the parts of a
 * composite key. Every part ends up in a header or a signature, where anything else is a paste error
 * (a trailing newline, a key of another form) that the upstream would only answer with a 401.
 */
const KEY_PART = /^[\x21-\x7b\x7d\x7e]+$/;

/** The secret's `|`-separated parts when there are `min` to `max` of them and each is a valid part. */
function keyParts(secret: string, min: number, max: number): string[] | undefined {
  const parts = secret.split('|');
  if (parts.length < min || parts.length > max) return undefined;
  return parts.every((part) => KEY_PART.test(part)) ? parts : undefined;
}

/** A key sent as is (a Bearer token, an API-key header). */
export function parsePlainKey(secret: string): CredentialsParse<PlainKeyCredentials> {
  const parts = keyParts(secret, 1, 1);
  return parts ? { ok: true, credentials: { apiKey: parts[0] } } : { ok: false, expected: PLAIN_KEY_FORM };
}

/** `AccessKey|SecretKey`: a key id sent in clear and a secret that only signs. */
export function parseAccessKeyPair(secret: string): CredentialsParse<AccessKeyPairCredentials> {
  const parts = keyParts(secret, 2, 2);
  return parts
    ? { ok: true, credentials: { accessKey: parts[0], secretKey: parts[1] } }
    : { ok: false, expected: ACCESS_KEY_PAIR_FORM };
}

/** `SubAppId|SecretId|SecretKey[|Region]`: an application id beside a signing key pair. */
export function parseSubAppKeys(secret: string): CredentialsParse<SubAppCredentials> {
  const parts = keyParts(secret, 3, 4);
  if (!parts) return { ok: false, expected: SUB_APP_KEYS_FORM };
  const [subAppId, secretId, secretKey, region] = parts;
  const credentials: SubAppCredentials = { subAppId, secretId, secretKey };
  if (region !== undefined) credentials.region = region;
  return { ok: true, credentials };
}
