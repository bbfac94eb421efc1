import {
  parseAccessKeyPair,
  parseSubAppKeys,
  type AccessKeyPairCredentials,
  type CredentialsParse,
  type SubAppCredentials,
} from '@gateway/providers-core';

/**
 * A gamma channel's key, in one of two forms that choose the wire the channel speaks:
 * - `SubAppId|SecretId|SecretKey[|Region]` (upstreams.md §5.1): the AIGC task API, every call signed
 *   with GAMMA-HMAC-SHA256; the region is sent as `X-Gamma-Region`; `SubAppId` is a decimal integer
 *   that goes into every body as a JSON number;
 * - `AccessKey|SecretKey` (§5.8): the family's official-compatible wire, each call carrying a
 *   short-lived HS256 token signed with the SecretKey.
 */
export type GammaCredentials = GammaSignedCredentials | GammaTokenCredentials;
export type GammaSignedCredentials = SubAppCredentials;
export type GammaTokenCredentials = AccessKeyPairCredentials;

export const GAMMA_KEY_FORM =
  'SubAppId|SecretId|SecretKey or SubAppId|SecretId|SecretKey|Region (SubAppId a decimal integer), ' +
  'or AccessKey|SecretKey for the official-compatible wire';

const SUB_APP_ID = /^[1-9]\d{0,15}$/;
const REGION = /^[A-Za-z0-9][A-Za-z0-9-]*$/;
const TOKEN_KEY_PARTS = 2;

export function parseGammaCredentials(secret: string): CredentialsParse<GammaCredentials> {
  if (secret.split('|').length === TOKEN_KEY_PARTS) {
    const pair = parseAccessKeyPair(secret);
    return pair.ok ? pair : { ok: false, expected: GAMMA_KEY_FORM };
  }
  const parse = parseSubAppKeys(secret);
  if (!parse.ok) return { ok: false, expected: GAMMA_KEY_FORM };
  const { subAppId, region } = parse.credentials;
  const validSubAppId = SUB_APP_ID.test(subAppId) && Number.isSafeInteger(Number(subAppId));
  if (!validSubAppId || (region !== undefined && !REGION.test(region))) {
    return { ok: false, expected: GAMMA_KEY_FORM };
  }
  return parse;
}

/** Whether a channel speaks the §5.8 wire (its key is `AccessKey|SecretKey`). */
export function isGammaTokenCredentials(credentials: GammaCredentials): credentials is GammaTokenCredentials {
  return 'accessKey' in credentials;
}

/** The signed wire's credentials; a token channel reaching the signed wire's code is a bug. */
export function gammaSignedCredentialsOf(credentials: GammaCredentials): GammaSignedCredentials {
  if (isGammaTokenCredentials(credentials)) throw new TypeError('not a SubAppId|SecretId|SecretKey channel');
  return credentials;
}
