import { bearerTokenFrom, firstValue, type HeaderValue } from './bearer-token.util';

/**
 * Route families by how a client may present its key: `native` routes (`/v1beta`) also accept the
 * `x-vendor-api-key` header and the `?key=` query parameter; every family accepts a Bearer token.
 */
export type RouteFamily = 'openai' | 'native' | 'family' | 'admin';

export const VENDOR_API_KEY_HEADER = 'x-vendor-api-key';

/**
 * The credential a request presents, in order of precedence: Bearer token, then (native routes only)
 * the `x-vendor-api-key` header, then the `key` query parameter. Undefined when none is present.
 */
export function extractCredential(
  headers: Readonly<Record<string, HeaderValue>>,
  query: unknown,
  routeFamily: RouteFamily,
): string | undefined {
  const bearer = bearerTokenFrom(headers['authorization']);
  if (bearer !== undefined || routeFamily !== 'native') return bearer;
  return nonBlank(firstValue(headers[VENDOR_API_KEY_HEADER])) ?? nonBlank(keyQueryParameter(query));
}

function keyQueryParameter(query: unknown): string | undefined {
  if (typeof query !== 'object' || query === null || !('key' in query)) return undefined;
  const value: unknown = query.key;
  if (typeof value === 'string') return value;
  return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
