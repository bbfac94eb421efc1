import { IncomingHttpHeaders } from 'node:http';
import { WireError } from '../scripted-error';
import { alphaError } from './alpha-errors';

/** Who called (tasks are visible to their submitter only), or the wire's 401. */
export type AlphaCredential = { owner: string } | { refusal: WireError };

const TOKEN_PREFIX = 'token ';

/**
 * `Authorization: Token <key>` (upstreams.md §3.1): the literal word `Token`; a Bearer header, no
 * header and an unknown key are all 401 `Unauthorized`.
 */
export function alphaCredentialOf(headers: IncomingHttpHeaders, keys: ReadonlySet<string>): AlphaCredential {
  const value = headers['authorization'];
  const key =
    value && value.slice(0, TOKEN_PREFIX.length).toLowerCase() === TOKEN_PREFIX
      ? value.slice(TOKEN_PREFIX.length).trim()
      : undefined;
  if (key && keys.has(key)) return { owner: key };
  const message = key === undefined ? 'the Authorization header must be "Token <key>"' : 'invalid token';
  return { refusal: alphaError('Unauthorized', message) };
}
