/**
 * What Postgres cannot store in text or jsonb: NUL, and UTF-16 surrogates that are not part of a pair
 * (JSON.stringify writes them as `\udXXX` escapes, which jsonb refuses). Searched without the `u` flag,
 * so the pattern sees code units. A request stored as it came (a task row's request) must not hold
 * them; the request log replaces them instead (billing's toStorableText), since it only records.
 */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters to find.
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const UNSTORABLE_TEXT_PROBLEM = 'must not contain NUL (U+0000) or unpaired surrogate characters';

export function hasUnstorableText(value: string): boolean {
  return UNSTORABLE_TEXT.test(value);
}

/**
 * The path of the first key or string in a parsed JSON value that holds unstorable text (`prompt`,
 * `image_urls[0]`, `extra["\u0000"]`), or undefined. The body's depth and size are bounded before
 * this runs (BODY_SHAPE_LIMITS), so the recursion is too.
 */
export function findUnstorableText(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return hasUnstorableText(value) ? path || '(body)' : undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = findUnstorableText(value[index], `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, entry] of Object.entries(value)) {
    const entryPath = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
      ? `${path}${path ? '.' : ''}${key}`
      : `${path}[${JSON.stringify(key)}]`;
    if (hasUnstorableText(key)) return entryPath;
    const found = findUnstorableText(entry, entryPath);
    if (found !== undefined) return found;
  }
  return undefined;
}
