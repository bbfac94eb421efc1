import { IncomingHttpHeaders } from 'node:http';
import { bearerKeyOf } from '../bearer-key.util';
import { WireError } from '../scripted-error';
import { lambdaError } from './lambda-errors';

/** Who called (tasks are visible to their submitter only), or the wire's 401. */
export type LambdaCredential = { owner: string } | { refusal: WireError };

/** `Authorization: Bearer <key>` (upstreams.md §9.1); no header, another scheme or an unknown key is a 401. */
export function lambdaCredentialOf(
  headers: IncomingHttpHeaders,
  keys: ReadonlySet<string>,
): LambdaCredential {
  const key = bearerKeyOf(headers);
  if (key !== undefined && keys.has(key)) return { owner: key };
  const message = key === undefined ? 'the Authorization header must be "Bearer <key>"' : 'invalid api key';
  return { refusal: lambdaError(401, 'unauthorized', message) };
}
