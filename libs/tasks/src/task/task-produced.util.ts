import type { Task } from '@gateway/db';
import type { TaskCompleted } from '@gateway/providers-core';
import type { TaskKind } from './task-kinds';
import { videoTaskPriceOf } from './task-price-snapshot';
import type { TaskPatch } from './task-store';

/** tasks.media_seconds and the token columns are int4: a wildly wrong upstream report must not make the terminal write fail. */
const MAX_STORABLE_COUNT = 2_147_483_647;

/** The kinds priced by the second of what they produced. */
const MEDIA_KINDS: ReadonlySet<string> = new Set<TaskKind>(['video', 'music']);

/**
 * What a completed task produced, in the unit its settlement captures by, written with its terminal
 * transition so that a settlement re-run after a crash captures the same amount without asking the
 * upstream again. A video or music task produced seconds: as the upstream reported them, rounded up
 * as billing bills them, else those its hold covered; and the tokens its upstream reported, where its
 * wire bills tokens. Any other task produced images: as reported, else one per output.
 */
export function producedByTask(
  task: Pick<Task, 'kind' | 'priceSnapshot'>,
  outcome: TaskCompleted,
): Pick<TaskPatch, 'imageCount' | 'mediaSeconds' | 'inputTokens' | 'outputTokens'> {
  if (!MEDIA_KINDS.has(task.kind))
    return { imageCount: outcome.usage?.images?.count ?? outcome.outputs.length };
  const seconds =
    reportedSeconds(outcome.usage?.video?.seconds ?? outcome.usage?.audio?.seconds) ??
    videoTaskPriceOf(task.priceSnapshot)?.heldSeconds;
  const tokens = outcome.usage?.tokens;
  return {
    ...(seconds === undefined ? {} : { mediaSeconds: storable(Math.ceil(seconds)) }),
    ...(tokens === undefined
      ? {}
      : { inputTokens: storable(tokens.inputTokens), outputTokens: storable(tokens.outputTokens) }),
  };
}

function storable(count: number): number {
  return Math.min(MAX_STORABLE_COUNT, Math.max(0, count));
}

/** A wire that reports zero, a negative or a non-number did not say how long the result is. */
function reportedSeconds(seconds: number | undefined): number | undefined {
  return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}
