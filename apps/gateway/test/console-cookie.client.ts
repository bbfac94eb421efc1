import type { GatewayHarness, HttpAnswer } from './gateway-harness';

/** A Set-Cookie value read into its name, value and attributes (names lower-cased). */
export interface ParsedSetCookie {
  name: string;
  value: string;
  attributes: Map<string, string>;
}

export function parseSetCookie(header: string | null): ParsedSetCookie {
  if (header === null) throw new Error('no Set-Cookie header');
  const [pair, ...rest] = header.split(';').map((part) => part.trim());
  const separator = pair.indexOf('=');
  const attributes = new Map<string, string>();
  for (const attribute of rest) {
    const equals = attribute.indexOf('=');
    if (equals < 0) attributes.set(attribute.toLowerCase(), '');
    else attributes.set(attribute.slice(0, equals).toLowerCase(), attribute.slice(equals + 1));
  }
  return { name: pair.slice(0, separator), value: pair.slice(separator + 1), attributes };
}

/**
 * Signs in to the console of `baseUrl` (the harness's first instance by default) as the console's
 * page would; returns the Cookie header value to send back and the answer.
 */
export async function signIn(
  harness: GatewayHarness,
  options: { token?: string; baseUrl?: string; headers?: Record<string, string> } = {},
): Promise<{ cookie: string; answer: HttpAnswer }> {
  const answer = await harness.request('POST', '/admin/session', {
    body: { token: options.token ?? harness.adminToken },
    baseUrl: options.baseUrl,
    headers: options.headers,
  });
  const header = answer.headers.get('set-cookie');
  const cookie = header === null ? '' : `${parseSetCookie(header).name}=${parseSetCookie(header).value}`;
  return { cookie, answer };
}

/** The headers of a request the console's own page at `origin` sends with its cookie. */
export function fromConsole(cookie: string, origin: string): Record<string, string> {
  return { cookie, origin, 'sec-fetch-site': 'same-origin' };
}
