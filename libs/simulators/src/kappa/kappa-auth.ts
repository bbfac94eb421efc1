import { WireError } from '../scripted-error';
import { SimulatedCall } from '../simulated-route';
import { kappaInvalidKey, kappaMissingKey } from './kappa-errors';

/** Header `x-vendor-api-key` or query `?key=` (upstreams.md §1.1); a wrong key is a 400, not a 401. */
export function kappaCredentialFailure(
  call: SimulatedCall,
  keys: ReadonlySet<string>,
): WireError | undefined {
  const key = kappaKeyOf(call);
  if (!key) return kappaMissingKey();
  return keys.has(key) ? undefined : kappaInvalidKey();
}

function kappaKeyOf(call: SimulatedCall): string | undefined {
  const header = call.request.headers['x-vendor-api-key'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  if (fromHeader) return fromHeader;
  const query = call.request.query as Record<string, string | string[] | undefined> | undefined;
  const fromQuery = query?.['key'];
  return Array.isArray(fromQuery) ? fromQuery[0] : fromQuery;
}
