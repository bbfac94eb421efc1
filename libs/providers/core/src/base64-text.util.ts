import type { TextRead } from './byte-strings';

/** The Base64 alphabet, padding left out. */
const BASE64_RUN = /^[A-Za-z0-9+/]*$/;

// perf-machinery: base64-slices (docs/performance-machinery.md)
/**
 * Characters one regular expression run reads. Images arrive as megabytes of Base64, and a single run
 * over all of them now and then threw "Maximum call stack size exceeded" from inside RegExp#test (seen
 * on a 20 MB body under a loaded test suite); runs over slices of this size stay far from any stack
 * limit and cost the same per character.
 */
const RUN_CHARACTERS = 64 * 1024;

/** How many `=` end `text` (read from `start`), at most two. */
export function base64PaddingOf(text: TextRead, start = 0): number {
  const tail = text.slice(Math.max(start, text.length - 2));
  return tail.endsWith('==') ? 2 : tail.endsWith('=') ? 1 : 0;
}

/**
 * Whether `text`, from `start`, is Base64: at least one character of the standard alphabet, then at
 * most two `=`. Checks the alphabet only: callers that need whole quanta check the length.
 */
export function isBase64Text(text: TextRead, start = 0): boolean {
  const end = text.length - base64PaddingOf(text, start);
  if (end <= start) return false;
  for (let from = start; from < end; from += RUN_CHARACTERS) {
    if (!BASE64_RUN.test(text.slice(from, Math.min(end, from + RUN_CHARACTERS)))) return false;
  }
  return true;
}

/** The most characters a `data:` URL's prefix (media type and parameters, up to `;base64,`) may take. */
const DATA_URL_PREFIX_CHARACTERS = 1024;

/**
 * `pattern`, anchored at the start, matched against a text's first characters only: a prefix pattern
 * that fails on a megabyte value (`data:` and no `;base64,`) would otherwise run over all of it.
 */
export function matchDataUrlPrefix(pattern: RegExp, text: TextRead): RegExpExecArray | null {
  return pattern.exec(text.slice(0, DATA_URL_PREFIX_CHARACTERS));
}
