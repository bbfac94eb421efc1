/**
 * What the gateway changed on the way (a translation rule, a size fallback, a dropped field) travels
 * back in one header, so a client sees, for example, that its safety settings could not be forwarded
 * to an OpenAI-style channel. Header values are ASCII: anything else becomes `?`.
 *
 * Warnings echo what the client sent (field names, schema keywords), and a response head over what
 * the client's HTTP parser accepts (Node's: 16 KiB, many others: 8 KiB) is an answer it never reads,
 * for a task that runs and is billed anyway. So any word is cut at WORD_LIMIT characters and the
 * header at HEADER_LIMIT, the warnings left out counted at its end.
 */
const WORD_LIMIT = 64;
const HEADER_LIMIT = 1024;
const SEPARATOR = ' | ';
const ELLIPSIS = '...';
const LONG_WORD = new RegExp(`[^ ]{${WORD_LIMIT + 1},}`, 'g');

export function warningHeader(warnings: readonly string[]): Record<string, string> {
  return warnings.length === 0
    ? {}
    : { 'x-gateway-warning': joinWithinLimit(warnings.map(toHeaderText), HEADER_LIMIT) };
}

function toHeaderText(warning: string): string {
  return warning.replace(/[^\x20-\x7e]/g, '?').replace(LONG_WORD, (word) => cut(word, WORD_LIMIT));
}

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - ELLIPSIS.length)}${ELLIPSIS}`;
}

function moreNote(count: number): string {
  return `${SEPARATOR}and ${count} more`;
}

/**
 * The warnings in order while they fit, keeping room for the note that counts the rest; a first
 * warning too long on its own is cut rather than left out, so the header always says something.
 */
function joinWithinLimit(texts: readonly string[], limit: number): string {
  const noteRoom = moreNote(texts.length).length;
  let joined = '';
  for (let index = 0; index < texts.length; index += 1) {
    const after = texts.length - index - 1;
    const room = after === 0 ? limit : limit - noteRoom;
    const next = index === 0 ? texts[index] : `${joined}${SEPARATOR}${texts[index]}`;
    if (next.length <= room) {
      joined = next;
    } else if (index === 0) {
      return after === 0 ? cut(next, room) : `${cut(next, room)}${moreNote(after)}`;
    } else {
      return `${joined}${moreNote(after + 1)}`;
    }
  }
  return joined;
}
