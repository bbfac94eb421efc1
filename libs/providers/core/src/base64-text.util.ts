/** The Base64 alphabet, padding left out. */
const BASE64_RUN = /^[A-Za-z0-9+/]*$/;

/**
 * Characters one regular expression run reads. Images arrive as megabytes of Base64, and a single run
 * over all of them now and then threw "Maximum call stack size exceeded" from inside RegExp#test (seen
 * on a 20 MB body under a loaded test suite); runs over slices of this size stay far from any stack
 * limit and cost the same per character.
 */
const RUN_CHARACTERS = 64 * 1024;

/**
 * Whether `text` is Base64: at least one character of the standard alphabet, then at most two `=`.
 * Checks the alphabet only: callers that need whole quanta check the length.
 */
export function isBase64Text(text: string): boolean {
  const end = text.endsWith('==') ? text.length - 2 : text.endsWith('=') ? text.length - 1 : text.length;
  if (end === 0) return false;
  for (let start = 0; start < end; start += RUN_CHARACTERS) {
    if (!BASE64_RUN.test(text.slice(start, Math.min(end, start + RUN_CHARACTERS)))) return false;
  }
  return true;
}

/** The most characters a `data:` URL's prefix (media type and parameters, up to `;base64,`) may take. */
const DATA_URL_PREFIX_CHARACTERS = 1024;

/**
 * `pattern`, anchored at the start, matched against a text's first characters only: a prefix pattern
 * that fails on a megabyte value (`data:` and no `;base64,`) would otherwise run over all of it.
 */
export function matchDataUrlPrefix(pattern: RegExp, text: string): RegExpExecArray | null {
  return pattern.exec(text.slice(0, DATA_URL_PREFIX_CHARACTERS));
}
