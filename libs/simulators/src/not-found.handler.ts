import { sendWireError } from './raw-response.util';
import { SimulatedHandler } from './simulated-route';
import { compatNotFound } from './compat/compat-errors';
import { kappaNotFound } from './kappa/kappa-errors';

/** Unknown paths answer in the envelope of the wire the path belongs to. */
export function notFoundHandler(): SimulatedHandler {
  return async ({ request, response }) => {
    const path = request.url.split('?')[0];
    const error =
      path.startsWith('/v1beta/') || path.includes('/models/')
        ? kappaNotFound(`Unknown path: ${path}.`)
        : compatNotFound(request.method, path);
    sendWireError(response, error);
  };
}
