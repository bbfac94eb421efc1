import { bearerKeyOf } from '../bearer-key.util';
import { WireError } from '../scripted-error';
import { SimulatedCall } from '../simulated-route';
import { etaAuthenticationError } from './eta-errors';

/** `Authorization: Bearer <key>` (upstreams.md §6.1); missing and wrong keys are both 401. */
export function etaCredentialFailure(
  call: SimulatedCall,
  keys: ReadonlySet<string>,
  requestId: string,
): WireError | undefined {
  const key = bearerKeyOf(call.request.headers);
  return key && keys.has(key) ? undefined : etaAuthenticationError(requestId);
}
