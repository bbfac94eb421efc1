import type { EnvironmentReader } from './environment-reader';
import type { VideoTaskDeadlines } from './gateway-config';

/** A video family as VideoCall.family names it (`delta`, `gamma`, `zeta-video` …). */
const FAMILY = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const DEFAULT_DEADLINE_MS = 3_600_000;
const MIN_DEADLINE_MS = 1_000;

/**
 * VIDEO_TASK_DEADLINE_MS (every family) and VIDEO_TASK_DEADLINES, a comma list of `family=ms`
 * overrides (`delta=5400000,gamma=7200000`): how long after its creation a video task may run before
 * the worker reconciles it once more and fails it.
 */
export function parseVideoTaskDeadlines(reader: EnvironmentReader): VideoTaskDeadlines {
  const defaultMs = reader.integer('VIDEO_TASK_DEADLINE_MS', DEFAULT_DEADLINE_MS, { min: MIN_DEADLINE_MS });
  const byFamily = new Map<string, number>();
  for (const entry of reader.list('VIDEO_TASK_DEADLINES')) {
    const [family, value, ...rest] = entry.split('=').map((part) => part.trim());
    const ms = /^\d+$/.test(value ?? '') ? Number(value) : Number.NaN;
    const name = family.toLowerCase();
    if (rest.length > 0 || !FAMILY.test(name) || !Number.isSafeInteger(ms) || ms < MIN_DEADLINE_MS) {
      reader.addProblem(
        `VIDEO_TASK_DEADLINES entry "${entry}" must be family=milliseconds, at least ${MIN_DEADLINE_MS} ms`,
      );
    } else if (byFamily.has(name)) {
      reader.addProblem(`VIDEO_TASK_DEADLINES names the family "${name}" twice`);
    } else {
      byFamily.set(name, ms);
    }
  }
  return { defaultMs, byFamily };
}
