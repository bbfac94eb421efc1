// Checks the console runs before it sends a form, mirroring the admin API's own rules (the API checks
// again and its message is shown when it refuses): names ≤ 200 characters, integers within Postgres
// INTEGER, http(s) URLs, JSON objects for settings.

export type Problems = Record<string, string>;

export const NAME_MAX = 200;
const INT32_MAX = 2_147_483_647;

export function requiredName(value: string, label: string): string | undefined {
  if (value.trim() === '') return `${label} is required.`;
  if (value.length > NAME_MAX) return `${label} is at most ${NAME_MAX} characters.`;
  return undefined;
}

export function httpUrl(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Use an http:// or https:// URL.';
    return undefined;
  } catch {
    return 'Enter a full URL, like https://upstream.example/v1.';
  }
}

/** An optional integer field: undefined when empty, else the number or a problem. */
export function optionalInteger(
  value: string,
  label: string,
  bounds: { min: number; max?: number },
): { value?: number; problem?: string } {
  const text = value.trim();
  if (text === '') return {};
  if (!/^-?\d+$/.test(text)) return { problem: `${label} must be a whole number.` };
  const number = Number(text);
  const max = bounds.max ?? INT32_MAX;
  if (number < bounds.min || number > max)
    return { problem: `${label} must be between ${bounds.min} and ${max}.` };
  return { value: number };
}

/** The bounds of a channel's poll-rate ceiling, as the admin API checks them (CreateChannelDto). */
export const POLLS_PER_SECOND_MIN = 0.01;
export const POLLS_PER_SECOND_MAX = 10_000;

/**
 * A channel's ceiling on task polls per second: a decimal number within the API's bounds, or empty for
 * no ceiling (null, which also clears one on an edit).
 */
export function pollsPerSecond(value: string): { value: number | null; problem?: string } {
  const text = value.trim();
  if (text === '') return { value: null };
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(text))
    return { value: null, problem: 'Polls per second must be a number, like 2 or 0.5.' };
  const number = Number(text);
  if (number < POLLS_PER_SECOND_MIN || number > POLLS_PER_SECOND_MAX)
    return {
      value: null,
      problem: `Polls per second must be between ${POLLS_PER_SECOND_MIN} and ${POLLS_PER_SECOND_MAX}.`,
    };
  return { value: number };
}

/** A JSON object typed in a text area; empty means {}. */
export function jsonObject(value: string): { value?: Record<string, unknown>; problem?: string } {
  if (value.trim() === '') return { value: {} };
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return { problem: 'Settings must be a JSON object, like {"region": "east"}.' };
    }
    return { value: parsed as Record<string, unknown> };
  } catch (error) {
    return { problem: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** "a, b\nc" → ["a", "b", "c"]: comma or line separated, blanks and repeats dropped. */
export function listOfNames(value: string): string[] {
  return [
    ...new Set(
      value
        .split(/[\n,]/)
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    ),
  ];
}

/**
 * A channel's models, one per line: `model` or `model=upstream-model` (the id sent upstream when it
 * differs). Repeats are a problem, as the API refuses them.
 */
export function channelModels(value: string): {
  value?: { model: string; upstreamModel?: string }[];
  problem?: string;
} {
  const lines = value
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length === 0) return { problem: 'List at least one model.' };
  const seen = new Set<string>();
  const models: { model: string; upstreamModel?: string }[] = [];
  for (const line of lines) {
    const [model, upstreamModel, ...rest] = line.split('=').map((part) => part.trim());
    if (rest.length > 0 || model === '' || upstreamModel === '')
      return { problem: `Cannot read "${line}": use model or model=upstream-model.` };
    if (model.length > NAME_MAX || (upstreamModel ?? '').length > NAME_MAX)
      return { problem: `"${line}" is too long.` };
    if (seen.has(model)) return { problem: `${model} is listed twice.` };
    seen.add(model);
    models.push(upstreamModel === undefined ? { model } : { model, upstreamModel });
  }
  return { value: models };
}

export function hasProblems(problems: Problems): boolean {
  return Object.values(problems).some((problem) => problem !== undefined && problem !== '');
}
