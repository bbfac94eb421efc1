/** The seven upstream failure classes every simulated wire can inject (upstreams.md §0). */
export const SIM_ERROR_CLASSES = [
  'rate_limit',
  'overload',
  'auth',
  'bad_request',
  'content_policy',
  'insufficient_balance',
  'timeout',
] as const;

export type SimErrorClass = (typeof SIM_ERROR_CLASSES)[number];

/**
 * What a test (or a channel's base URL) asks the simulator to do with one request. Every field is
 * optional; absent fields mean "behave like a healthy upstream".
 */
export interface Directives {
  /** Pause before the response headers. */
  latencyMs?: number;
  /** Number of content chunks of a stream. */
  chunks?: number;
  /** Pause between stream chunks. */
  intervalMs?: number;
  /** Reported token counts, overriding the computed ones. */
  usage?: { input: number; output: number };
  error?: SimErrorClass;
  /** HTTP status among the alternatives of the error class (e.g. overload → 500, 503, 504). */
  status?: number;
  retryAfterSeconds?: number;
  /** Stream: number of chunks sent before the mid-stream error. */
  errorAfter?: number;
  block?: 'prompt' | 'output';
  /** Final finish reason, as the wire spells it. */
  finish?: string;
  /** Reply text (URL-decoded). */
  text?: string;
  /** Function to call, forcing a tool-call answer. */
  tool?: string;
  /** kappa thoughtsTokenCount (compat reasoning_tokens). */
  thoughts?: number;
  /** How long a timeout keeps the connection without answering. */
  hangMs?: number;
  /** The wire's own error code for a scripted error, where one class has several (beta, eta). */
  code?: string;
  /** Asynchronous tasks: result queries answered "pending" before the result. */
  polls?: number;
  /** Asynchronous tasks: time from submission until the result is ready. */
  taskMs?: number;
  /** Lifetime of the result-file URLs of this answer, overriding the wire's. */
  urlTtlSeconds?: number;
  /** Number of images where the upstream chooses how many (iota group mode, beta). */
  images?: number;
  /** compat videos: where a completed video object carries its result URL (upstreams.md §2.4). */
  placement?: VideoResultPlacement;
  /**
   * compat videos: the status words the relay answers with, by gateway state (`words=` lists them as
   * `queued+processing+completed+failed+cancelled`, `+` because a base-URL prefix cannot hold `/`; a
   * position left empty keeps the first-party word).
   */
  statusWords?: Partial<Record<VideoStatusState, string>>;
  /** compat videos: the host (and port) result URLs point at, instead of the simulator's own (SSRF tests). */
  resultHost?: string;
  /** compat videos: this many result links are handed out already expired before a live one. */
  expiredLinks?: number;
  /** lambda: this many queries of a task answer `UNKNOWN` before it goes on. */
  unknownPolls?: number;
}

/** The result-URL placement profiles of upstreams.md §2.4. */
export const VIDEO_RESULT_PLACEMENTS = [
  'content-only',
  'video_url',
  'url',
  'output.url',
  'metadata.url',
] as const;

export type VideoResultPlacement = (typeof VIDEO_RESULT_PLACEMENTS)[number];

/** The gateway states a compat video status word stands for, in the order `words=` lists them. */
export const VIDEO_STATUS_STATES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;

export type VideoStatusState = (typeof VIDEO_STATUS_STATES)[number];

const BODY_MARKER_OPEN = '[[sim';
const BODY_MARKER_CLOSE = ']]';

/**
 * Parses `key=value` pairs separated by `;` or `,`. Each value is URL-decoded once after splitting, so
 * an encoded separator (`%3B`, `%2C`) inside `text=` survives. Unknown keys and malformed values are
 * ignored: a simulator should not fail because a test wrote a directive it does not know.
 */
export function parseDirectives(source: string): Directives {
  const directives: Directives = {};
  for (const pair of source.split(/[;,]/)) {
    const separator = pair.indexOf('=');
    if (separator <= 0) continue;
    const key = pair.slice(0, separator).trim().toLowerCase();
    const value = decodeLeniently(pair.slice(separator + 1).trim());
    applyDirective(directives, key, value);
  }
  return directives;
}

/** Later sources override earlier ones, field by field. */
export function mergeDirectives(...sources: Array<Directives | undefined>): Directives {
  return Object.assign({}, ...sources.filter((source) => source !== undefined)) as Directives;
}

/**
 * Finds the `[[sim …]]` marker in a raw request body with plain index lookups (no parsing, no regex),
 * so that scripting costs nothing on bodies that carry none.
 */
export function findBodyDirectives(rawBody: string): Directives | undefined {
  const open = rawBody.indexOf(BODY_MARKER_OPEN);
  if (open < 0) return undefined;
  const close = rawBody.indexOf(BODY_MARKER_CLOSE, open + BODY_MARKER_OPEN.length);
  if (close < 0) return undefined;
  return parseDirectives(rawBody.slice(open + BODY_MARKER_OPEN.length, close));
}

function applyDirective(directives: Directives, key: string, value: string): void {
  switch (key) {
    case 'latency':
      return assignDefined(directives, 'latencyMs', nonNegativeInteger(value));
    case 'chunks':
      return assignDefined(directives, 'chunks', positiveInteger(value));
    case 'interval':
      return assignDefined(directives, 'intervalMs', nonNegativeInteger(value));
    case 'usage':
      return assignDefined(directives, 'usage', usagePair(value));
    case 'error':
      return assignDefined(directives, 'error', errorClass(value));
    case 'status':
      return assignDefined(directives, 'status', positiveInteger(value));
    case 'retry_after':
      return assignDefined(directives, 'retryAfterSeconds', nonNegativeInteger(value));
    case 'error_after':
      return assignDefined(directives, 'errorAfter', nonNegativeInteger(value));
    case 'block':
      return assignDefined(directives, 'block', value === 'prompt' || value === 'output' ? value : undefined);
    case 'finish':
      return assignDefined(directives, 'finish', value || undefined);
    case 'text':
      return assignDefined(directives, 'text', value);
    case 'tool':
      return assignDefined(directives, 'tool', value || undefined);
    case 'thoughts':
      return assignDefined(directives, 'thoughts', nonNegativeInteger(value));
    case 'hang':
      return assignDefined(directives, 'hangMs', nonNegativeInteger(value));
    case 'code':
      return assignDefined(directives, 'code', value || undefined);
    case 'polls':
      return assignDefined(directives, 'polls', nonNegativeInteger(value));
    case 'task_ms':
      return assignDefined(directives, 'taskMs', nonNegativeInteger(value));
    case 'url_ttl':
      return assignDefined(directives, 'urlTtlSeconds', nonNegativeInteger(value));
    case 'images':
      return assignDefined(directives, 'images', positiveInteger(value));
    case 'placement':
      return assignDefined(directives, 'placement', videoPlacement(value));
    case 'words':
      return assignDefined(directives, 'statusWords', statusWords(value));
    case 'result_host':
      return assignDefined(directives, 'resultHost', /^[\w.:[\]-]+$/.test(value) ? value : undefined);
    case 'expired_links':
      return assignDefined(directives, 'expiredLinks', nonNegativeInteger(value));
    case 'unknown':
      return assignDefined(directives, 'unknownPolls', nonNegativeInteger(value));
  }
}

/** A malformed value leaves the field absent, so that merging never erases a valid earlier source. */
function assignDefined<Field extends keyof Directives>(
  directives: Directives,
  field: Field,
  value: Directives[Field] | undefined,
): void {
  if (value !== undefined) directives[field] = value;
}

function errorClass(value: string): SimErrorClass | undefined {
  return (SIM_ERROR_CLASSES as readonly string[]).includes(value) ? (value as SimErrorClass) : undefined;
}

function videoPlacement(value: string): VideoResultPlacement | undefined {
  return (VIDEO_RESULT_PLACEMENTS as readonly string[]).includes(value)
    ? (value as VideoResultPlacement)
    : undefined;
}

/** `words=pending+running+succeeded+error+canceled`; empty positions are skipped. */
function statusWords(value: string): Directives['statusWords'] {
  const words: Partial<Record<VideoStatusState, string>> = {};
  value.split('+').forEach((word, index) => {
    const state = VIDEO_STATUS_STATES[index];
    if (state && /^[\w.-]+$/.test(word)) words[state] = word;
  });
  return Object.keys(words).length > 0 ? words : undefined;
}

function nonNegativeInteger(value: string): number | undefined {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed >= 0 ? parsed : undefined;
}

function positiveInteger(value: string): number | undefined {
  const parsed = nonNegativeInteger(value);
  return parsed !== undefined && parsed > 0 ? parsed : undefined;
}

function usagePair(value: string): Directives['usage'] {
  const [input, output] = value.split('/').map(nonNegativeInteger);
  return input !== undefined && output !== undefined ? { input, output } : undefined;
}

function decodeLeniently(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
