export type HeaderValue = string | readonly string[] | undefined;

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The token of an `Authorization: Bearer <token>` header, or undefined for any other form. */
export function bearerTokenFrom(authorization: HeaderValue): string | undefined {
  const value = firstValue(authorization);
  return value === undefined ? undefined : BEARER.exec(value)?.[1];
}

export function firstValue(value: HeaderValue): string | undefined {
  return typeof value === 'string' ? value : value?.[0];
}
