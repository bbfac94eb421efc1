import type { VideoTaskDeadlines } from '@gateway/config';

/** The hold outlives the task's deadline, so the hold reaper never ends a hold the task still owns. */
const HOLD_MARGIN_MS = 60 * 60_000;
/** Where a family name (VideoCall.family: `delta-2`, `epsilon_3_1`, `gamma`) splits into words. */
const WORD_BOUNDARY = /[-_]/;

/**
 * How long a video task of `family` may run: VIDEO_TASK_DEADLINES names the family itself or a word
 * prefix of it (`delta` for `delta-2` and `delta-2-pro`; the longest one named wins), else
 * VIDEO_TASK_DEADLINE_MS.
 */
export function videoDeadlineMsOf(deadlines: VideoTaskDeadlines, family: string): number {
  const name = family.toLowerCase();
  const words = name.split(WORD_BOUNDARY);
  for (let count = words.length; count > 0; count--) {
    const prefix = name.slice(0, words.slice(0, count).join('-').length);
    const ms = deadlines.byFamily.get(prefix);
    if (ms !== undefined) return ms;
  }
  return deadlines.defaultMs;
}

/** The hold's time to live for a task with that deadline. */
export function videoHoldTtlMs(deadlineMs: number): number {
  return deadlineMs + HOLD_MARGIN_MS;
}
