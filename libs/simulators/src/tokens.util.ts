/**
 * Deterministic token arithmetic shared by every simulated wire: one token per four characters of
 * text (rounded up), so tests can predict every reported count.
 */
export const CHARACTERS_PER_TOKEN = 4;

export function tokensForCharacters(characters: number): number {
  return Math.ceil(characters / CHARACTERS_PER_TOKEN);
}

export function tokensForText(text: string): number {
  return tokensForCharacters(text.length);
}

/** Cuts a reply down to what `maxTokens` output tokens can carry. */
export function truncateToTokens(text: string, maxTokens: number): string {
  return text.slice(0, maxTokens * CHARACTERS_PER_TOKEN);
}

const WORDS_PER_CHUNK = 4;
const VOCABULARY = [
  'lorem',
  'ipsum',
  'dolor',
  'sit',
  'amet',
  'consectetur',
  'adipiscing',
  'elit',
  'sed',
  'do',
  'eiusmod',
  'tempor',
];
const defaultReplies = new Map<number, string>();

/** The reply when no `text=` directive is given: `chunkCount × 4` words, the same every time. */
export function defaultReplyText(chunkCount: number): string {
  const cached = defaultReplies.get(chunkCount);
  if (cached !== undefined) return cached;
  const words: string[] = [];
  for (let index = 0; index < chunkCount * WORDS_PER_CHUNK; index += 1) {
    words.push(VOCABULARY[index % VOCABULARY.length]);
  }
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  const reply = `${words.join(' ')}.`;
  defaultReplies.set(chunkCount, reply);
  return reply;
}

/**
 * Splits text into `count` pieces whose concatenation is the text: on word boundaries when there are
 * enough words, else on characters. A text shorter than `count` characters yields fewer pieces.
 */
export function splitIntoPieces(text: string, count: number): string[] {
  if (count <= 1 || text.length <= 1) return [text];
  const words = text.split(' ');
  if (words.length >= count) {
    const pieces: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const start = Math.floor((index * words.length) / count);
      const end = Math.floor(((index + 1) * words.length) / count);
      const joined = words.slice(start, end).join(' ');
      pieces.push(index === 0 ? joined : ` ${joined}`);
    }
    return pieces;
  }
  const pieceCount = Math.min(count, text.length);
  const pieces: string[] = [];
  for (let index = 0; index < pieceCount; index += 1) {
    const start = Math.floor((index * text.length) / pieceCount);
    const end = Math.floor(((index + 1) * text.length) / pieceCount);
    pieces.push(text.slice(start, end));
  }
  return pieces;
}

/** Cumulative share of `total` after `done` of `count` steps; the last step reports exactly `total`. */
export function cumulativeShare(total: number, done: number, count: number): number {
  return done >= count ? total : Math.floor((total * done) / count);
}
