import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayExceptionFilter } from '../http/gateway-exception.filter';
import type { AdminTokenGuard } from './admin-token.guard';
import type { ApiKeyGuard } from './api-key.guard';

export interface EarlyAuthenticators {
  apiKeys: ApiKeyGuard;
  /** Absent where the admin API is off: /admin then has no routes, and answers 404 to everyone. */
  admin?: AdminTokenGuard;
  failures: GatewayExceptionFilter;
}

/**
 * Authenticates every request under an API-key prefix (INFERENCE_PREFIXES) or /admin as soon as its headers have
 * arrived, before its body is read and whether or not a route matches:
 * - a request without a valid credential is answered at once (401, 403, or 429 once its address has
 *   failed too often); the rest of a body still on its way is read and dropped within tight bounds
 *   before the connection is closed (../http/lingering-close.ts), so that the client reads the
 *   answer, and a client without a key cannot hold connections open by sending bodies slowly;
 * - an unknown /admin path answers 404 to the admin token only: without it, the admin surface
 *   cannot be mapped.
 * The routes' guards still run and find the request authenticated.
 */
export function registerEarlyAuthentication(
  fastify: FastifyInstance,
  authenticators: EarlyAuthenticators,
): void {
  const { apiKeys, admin, failures } = authenticators;
  fastify.addHook('onRequest', async (request, reply) => {
    const area = protectedAreaOf(request);
    if (area === undefined) return;
    const authenticator = area === 'admin' ? admin : apiKeys;
    if (authenticator === undefined) return;
    try {
      await authenticator.authenticate(request);
    } catch (error) {
      failures.sendFailure(error, request, reply);
      return reply;
    }
  });
}

type ProtectedArea = 'inference' | 'admin';

/** Every route family an API key calls: the interface's /v1 and /v1beta and the families' own roots. */
const INFERENCE_PREFIXES = ['/v1', '/v1beta', '/bt', '/alpha', '/gamma', '/lambda', '/delta'];

/**
 * The URL as sent places most requests at once. Others are placed by their route's pattern, since
 * Fastify decodes the path before matching (`/%61dmin/keys` reaches `/admin/keys`), or, when no route
 * matches, by their decoded path in any case.
 */
function protectedAreaOf(request: FastifyRequest): ProtectedArea | undefined {
  return areaOf(request.url) ?? areaOf(request.routeOptions.url ?? decodedPathOf(request.url));
}

function areaOf(path: string): ProtectedArea | undefined {
  if (isUnder(path, '/admin')) return 'admin';
  if (INFERENCE_PREFIXES.some((prefix) => isUnder(path, prefix))) return 'inference';
  return undefined;
}

function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

function decodedPathOf(url: string): string {
  const queryStart = url.indexOf('?');
  const path = queryStart < 0 ? url : url.slice(0, queryStart);
  try {
    return decodeURIComponent(path).toLowerCase();
  } catch {
    return path.toLowerCase();
  }
}
