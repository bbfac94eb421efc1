import { sendWireError } from './raw-response.util';
import { SimulatedHandler } from './simulated-route';
import { betaMetadataError } from './beta/beta-errors';
import { newBetaRequestId } from './beta/beta-response.builder';
import { compatNotFound } from './compat/compat-errors';
import { etaNotFound } from './eta/eta-errors';
import { newEtaRequestId } from './eta/eta-request-id.util';
import { kappaNotFound } from './kappa/kappa-errors';
import { omegaError } from './omega/omega-errors';

const BETA_PATHS = new Set(['/', '/bt']);

/** Unknown paths (and methods) answer in the envelope of the wire the path belongs to. */
export function notFoundHandler(): SimulatedHandler {
  return async ({ request, response }) => {
    const path = request.url.split('?')[0];
    sendWireError(response, notFoundErrorOf(request.method, path, request.query as Record<string, unknown>));
  };
}

function notFoundErrorOf(method: string, path: string, query: Record<string, unknown>) {
  if (path.startsWith('/v1beta/') || path.includes('/models/'))
    return kappaNotFound(`Unknown path: ${path}.`);
  if (path.startsWith('/api/v3/')) return etaNotFound(path, newEtaRequestId());
  if (path.startsWith('/api/v1/')) return omegaError('NotFound', `${method} ${path} is not supported.`, 404);
  if (BETA_PATHS.has(path)) {
    const identity = {
      action: typeof query['Action'] === 'string' ? query['Action'] : '',
      version: typeof query['Version'] === 'string' ? query['Version'] : '',
      requestId: newBetaRequestId(),
    };
    return betaMetadataError(404, identity, 'NotFound', `${method} ${path} is not supported.`);
  }
  return compatNotFound(method, path);
}
