import type { FastifyRequest } from 'fastify';

/** The preference (RFC 7240 §4.1) that asks for a task instead of the images in the same response. */
export const RESPOND_ASYNC = 'respond-async';

/**
 * Whether the request's `Prefer` header(s) name `respond-async`. RFC 7240: preferences are
 * comma-separated, each a token with an optional value and parameters; tokens are case-insensitive;
 * a preference that is not understood, or cannot be parsed, is ignored (never an error). Read once per
 * image request: the only cost the synchronous path pays for the asynchronous one.
 */
export function prefersRespondAsync(request: Pick<FastifyRequest, 'headers'>): boolean {
  const header = request.headers.prefer;
  if (header === undefined) return false;
  const values = Array.isArray(header) ? header : [header];
  return values.some((value) =>
    value.split(',').some((preference) => preferenceToken(preference) === RESPOND_ASYNC),
  );
}

/** The preference's token, lower case: what comes before its value (`=`) or its parameters (`;`). */
function preferenceToken(preference: string): string {
  const end = preference.search(/[=;]/);
  return (end === -1 ? preference : preference.slice(0, end)).trim().toLowerCase();
}
