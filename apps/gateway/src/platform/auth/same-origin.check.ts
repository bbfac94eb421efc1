import type { FastifyRequest } from 'fastify';
import { GatewayError } from '@gateway/errors';

/** Methods that change nothing: a cross-origin page can make the browser send them, but not read the answer. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * Why a cookie-authenticated request that changes something is refused as coming from another site
 * (cross-site request forgery), or undefined when it came from the gateway's own pages. SameSite=Strict
 * already keeps the cookie off other sites' requests; this is the second lock, for browsers or
 * sibling subdomains (same site, other origin) where that does not hold.
 *
 * The request's own origin is the scheme and host it was sent to (the Host a browser sends is the
 * gateway's, whatever page made the request), or PUBLIC_BASE_URL's. `Origin` decides when present
 * (browsers send it on every POST, PUT, PATCH and DELETE); when absent or `null`, `Sec-Fetch-Site`;
 * then `Referer`; with none of them the request is refused, since no browser page sends such a request.
 */
export function crossOriginRefusal(
  request: FastifyRequest,
  publicBaseUrl: string | undefined,
): GatewayError | undefined {
  if (SAFE_METHODS.has(request.method)) return undefined;
  const own = ownOrigins(request, publicBaseUrl);
  const origin = singleHeader(request, 'origin');
  if (origin !== undefined && origin !== 'null') {
    return own.has(originOf(origin) ?? '') ? undefined : refusal('its Origin');
  }
  // Under the console's `Referrer-Policy: no-referrer` a browser sends `Origin: null` even on its own
  // pages' POSTs (Fetch standard, "append a request Origin header"); Sec-Fetch-Site, which no script
  // can set, then tells a page of this origin from a sandboxed or foreign one.
  const site = singleHeader(request, 'sec-fetch-site');
  if (site !== undefined) return site === 'same-origin' ? undefined : refusal('Sec-Fetch-Site');
  if (origin !== undefined) return refusal('its Origin (null)');
  const referer = singleHeader(request, 'referer');
  if (referer !== undefined) return own.has(originOf(referer) ?? '') ? undefined : refusal('its Referer');
  return new GatewayError(
    'permission_denied',
    'A console request that changes something must carry Origin: it is sent by the console’s own pages only.',
  );
}

function ownOrigins(request: FastifyRequest, publicBaseUrl: string | undefined): Set<string> {
  const origins = new Set<string>();
  const direct = originOf(`${request.protocol}://${request.host}`);
  if (direct !== undefined) origins.add(direct);
  const configured = publicBaseUrl === undefined ? undefined : originOf(publicBaseUrl);
  if (configured !== undefined) origins.add(configured);
  return origins;
}

/** The serialised origin of a URL (`https://host:port`, lower case, default port left out). */
function originOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const origin = new URL(url).origin;
  return origin === 'null' ? undefined : origin;
}

function singleHeader(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value.trim() : Array.isArray(value) ? '' : undefined;
}

function refusal(what: string): GatewayError {
  return new GatewayError(
    'permission_denied',
    `Cross-origin request refused: ${what} is not this gateway's origin. The console's session works from the console's own pages only.`,
  );
}
