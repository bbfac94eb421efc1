import { GatewayError } from '@gateway/errors';

/** The 404 of every admin route under /admin/accounts/{id}. */
export function accountNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No account has the id "${id}".`);
}
