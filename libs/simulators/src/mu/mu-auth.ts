import { bearerKeyOf } from '../bearer-key.util';
import { SimulatedCall } from '../simulated-route';
import { muError } from './mu-errors';

/** Who called (tasks and files are visible to their submitter only), or the wire's refusal. */
export type MuCredential = { owner: string } | { refusal: ReturnType<typeof muError> };

/**
 * `Authorization: Bearer <key>` (upstreams.md §7.1), answered as the wire answers everything, with
 * HTTP 200: no key at all is 1004 (authentication failed), an unknown key 2049 (invalid API key).
 */
export function muCredentialOf(call: SimulatedCall, keys: ReadonlySet<string>): MuCredential {
  const key = bearerKeyOf(call.request.headers);
  if (key === undefined) return { refusal: muError(1004) };
  return keys.has(key) ? { owner: key } : { refusal: muError(2049) };
}
