import type { FastifyRequest } from 'fastify';

/** The console's session cookie. */
export const CONSOLE_SESSION_COOKIE = 'gw_console';

/**
 * The session id the request's Cookie header carries, if any (the first, should there be several).
 * Read by hand: the one value needed is base64url, which no cookie encoding touches, and the cookie
 * library of @fastify/cookie only loads once its plugin is registered (an ESM import).
 */
export function consoleSessionIdOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator < 0 || pair.slice(0, separator).trim() !== CONSOLE_SESSION_COOKIE) continue;
    return pair.slice(separator + 1).trim();
  }
  return undefined;
}

/**
 * The Set-Cookie value that gives the browser a session: HttpOnly (no script reads it), SameSite=Strict
 * (no other site's page sends it), Secure when the request came over HTTPS (TRUST_PROXY decides whether
 * X-Forwarded-Proto counts), for the whole origin since the console and /admin share it. `id` is
 * base64url: nothing in it needs encoding.
 */
export function sessionCookie(request: FastifyRequest, id: string, maxAgeSeconds: number): string {
  return cookieWith(request, id, `Max-Age=${maxAgeSeconds}`);
}

/** The Set-Cookie value that removes the session cookie from the browser. */
export function clearedSessionCookie(request: FastifyRequest): string {
  return cookieWith(request, '', 'Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT');
}

function cookieWith(request: FastifyRequest, value: string, lifetime: string): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${CONSOLE_SESSION_COOKIE}=${value}; ${lifetime}; Path=/; HttpOnly; SameSite=Strict${secure}`;
}
