import { bearerKeyOf } from '../bearer-key.util';
import { WireError } from '../scripted-error';
import { SimulatedCall } from '../simulated-route';
import { omegaError } from './omega-errors';

/** Who called (tasks are visible to their submitter only), or the wire's refusal. */
export type OmegaCredential = { owner: string } | { refusal: WireError };

const ASYNC_HEADER = 'x-omega-async';

/**
 * `Authorization: Bearer <key>` (upstreams.md §8.1): a missing or unknown key is 401 `InvalidApiKey`.
 * A submission must also carry `X-Omega-Async: enable`; without it, 403 `AccessDenied`.
 */
export function omegaCredentialOf(
  call: SimulatedCall,
  keys: ReadonlySet<string>,
  submission: boolean,
): OmegaCredential {
  const key = bearerKeyOf(call.request.headers);
  if (key === undefined || !keys.has(key)) return { refusal: omegaError('InvalidApiKey') };
  if (submission && call.request.headers[ASYNC_HEADER] !== 'enable') {
    return { refusal: omegaError('AccessDenied', 'current user api does not support synchronous calls') };
  }
  return { owner: key };
}
