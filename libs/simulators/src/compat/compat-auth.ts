import { bearerKeyOf } from '../bearer-key.util';
import { WireError } from '../scripted-error';
import { SimulatedCall } from '../simulated-route';
import { compatInvalidKey, compatMissingKey } from './compat-errors';

/** `Authorization: Bearer <key>` (upstreams.md §2.1); missing and wrong keys are both 401. */
export function compatCredentialFailure(
  call: SimulatedCall,
  keys: ReadonlySet<string>,
): WireError | undefined {
  const key = bearerKeyOf(call.request.headers);
  if (!key) return compatMissingKey();
  return keys.has(key) ? undefined : compatInvalidKey(key);
}
