export const REDACTED = '[redacted]';

/**
 * A gateway API key (`gk_<prefix id>_<secret>`, see @gateway/auth). The secret part is matched from 16
 * characters on, so a truncated key is caught too.
 */
const GATEWAY_KEY = /gk_[A-Za-z0-9]{8}_[A-Za-z0-9]{16,}/g;

/**
 * A base64 run longer than 512 characters: inline images, audio and other payloads. Anchored at the
 * start of a run so the scan stays linear in the line length.
 */
const LONG_BASE64_RUN = /(?<![A-Za-z0-9+/=])[A-Za-z0-9+/=]{513,}/g;

/** The value of a `key` query parameter in a URL (`?key=…` or `&key=…`). */
const KEY_QUERY_VALUE = /([?&]key=)[^&#"'\s\\]+/gi;

/** A bearer credential written out in text, e.g. an echoed header line. */
const BEARER_CREDENTIAL = /(\bBearer\s+)[^\s"'\\,;]+/gi;

/**
 * Replaces every credential or payload that may hide inside free text. Safe to run on a serialised
 * JSON log line: replacements never touch quotes or escapes.
 */
export function scrubSensitiveText(text: string): string {
  return text
    .replace(GATEWAY_KEY, REDACTED)
    .replace(LONG_BASE64_RUN, redactBase64Run)
    .replace(KEY_QUERY_VALUE, `$1${REDACTED}`)
    .replace(BEARER_CREDENTIAL, `$1${REDACTED}`);
}

/**
 * In a serialised JSON line a run may begin right after a backslash, inside an escape (`\n`,
 * `\u0001`): the escape's own characters are kept so the line stays valid JSON.
 */
function redactBase64Run(run: string, offset: number, line: string): string {
  if (line[offset - 1] !== '\\') return REDACTED;
  const escapeLength = run.startsWith('u') ? 5 : 1;
  return run.slice(0, escapeLength) + REDACTED;
}
