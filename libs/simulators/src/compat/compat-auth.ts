import { WireError } from '../scripted-error';
import { SimulatedCall } from '../simulated-route';
import { compatInvalidKey, compatMissingKey } from './compat-errors';

const BEARER_PREFIX = 'bearer ';

/** `Authorization: Bearer <key>` (upstreams.md §2.1); missing and wrong keys are both 401. */
export function compatCredentialFailure(
  call: SimulatedCall,
  keys: ReadonlySet<string>,
): WireError | undefined {
  const header = call.request.headers['authorization'];
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || value.slice(0, BEARER_PREFIX.length).toLowerCase() !== BEARER_PREFIX)
    return compatMissingKey();
  const key = value.slice(BEARER_PREFIX.length).trim();
  if (!key) return compatMissingKey();
  return keys.has(key) ? undefined : compatInvalidKey(key);
}
