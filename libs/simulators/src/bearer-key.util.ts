import { IncomingHttpHeaders } from 'node:http';

const BEARER_PREFIX = 'bearer ';

/** The key of `Authorization: Bearer <key>`, or undefined when the header is absent or not Bearer. */
export function bearerKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const value = headers['authorization'];
  if (!value || value.slice(0, BEARER_PREFIX.length).toLowerCase() !== BEARER_PREFIX) return undefined;
  return value.slice(BEARER_PREFIX.length).trim() || undefined;
}
