import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isApiKeyPath } from '../errors/route-family';
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
 * Authenticates every request to a route declared as called with an API key (or under the root of
 * such routes), and every request under /admin, as soon as its headers have arrived, before its body is read and whether or not a route matches:
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
  // perf-machinery: synchronous-key-resolution (docs/performance-machinery.md)
  // A callback hook, not an async one: a cached key is judged without a promise (ApiKeyGuard).
  fastify.addHook('onRequest', (request, reply, done) => {
    const area = protectedAreaOf(request);
    const authenticator = area === 'admin' ? admin : area === 'inference' ? apiKeys : undefined;
    if (authenticator === undefined) return done();
    // Answered here, the request goes no further: `done` is not called (Fastify's early reply). An
    // answer that cannot be written goes to Fastify's error handler, as an async hook's throw did.
    const refuse = (error: unknown) => {
      try {
        failures.sendFailure(error, request, reply);
      } catch (sendError) {
        done(sendError as Error);
      }
    };
    let authenticating: void | Promise<void>;
    try {
      authenticating = authenticator.authenticate(request);
    } catch (error) {
      return refuse(error);
    }
    if (authenticating instanceof Promise) authenticating.then(() => done(), refuse);
    else done();
  });
}

type ProtectedArea = 'inference' | 'admin';

/** The operator API's root: its routes take the admin token, not an API key. */
const ADMIN_ROOT = '/admin';

/**
 * A route declared as called with an API key (InferenceRoutes, the text route table) says so in its
 * config. A request no route matches is placed by its path: under the root of declared API-key routes
 * (`/v1/nope`), or /admin. The URL as sent places it at once; otherwise its decoded path in any case,
 * since Fastify decodes the path before matching (`/%61dmin/keys` reaches `/admin/keys`).
 */
function protectedAreaOf(request: FastifyRequest): ProtectedArea | undefined {
  const area = areaOf(request.url);
  if (area !== undefined) return area;
  // Fastify builds routeOptions anew on each read: only for the paths the URL did not place.
  const { config, url } = request.routeOptions;
  if (config?.apiKey === true) return 'inference';
  return areaOf(url ?? decodedPathOf(request.url));
}

/**
 * The console's sign-in trades the admin token in its body for a session cookie, and its GET and
 * DELETE answer for the cookie they carry: that route checks what it is sent itself.
 */
const CONSOLE_SESSION_PATH = `${ADMIN_ROOT}/session`;

function areaOf(path: string): ProtectedArea | undefined {
  // Asked on every request: string comparisons only, nothing allocated.
  if (!path.startsWith(ADMIN_ROOT)) return isApiKeyPath(path) ? 'inference' : undefined;
  if (isConsoleSessionPath(path)) return undefined;
  if (path.length === ADMIN_ROOT.length || path.charCodeAt(ADMIN_ROOT.length) === SLASH) return 'admin';
  return isApiKeyPath(path) ? 'inference' : undefined;
}

const SLASH = 47;
const QUESTION_MARK = 63;

/** `/admin/session`, with or without a query. */
function isConsoleSessionPath(path: string): boolean {
  if (!path.startsWith(CONSOLE_SESSION_PATH)) return false;
  return (
    path.length === CONSOLE_SESSION_PATH.length ||
    path.charCodeAt(CONSOLE_SESSION_PATH.length) === QUESTION_MARK
  );
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
