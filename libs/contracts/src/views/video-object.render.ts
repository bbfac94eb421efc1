import { isJsonObject } from '@gateway/providers-core';
import type { VideoObjectView } from '../openai/video-object.view';
import type { VideoStatusValue } from '../openai/video-values.constants';
import { videoErrorOf } from './video-error.render';

/**
 * The columns a video object is made of (a task row's; a listing's row, its request without inputs,
 * has them too). Spelt out rather than picked from the Prisma type: contracts know no Prisma.
 */
export interface VideoTaskColumns {
  id: string;
  model: string;
  status: string;
  progress: number;
  createdAt: Date;
  completedAt: Date | null;
  failureReason: string | null;
  remixedFromId: string | null;
  request: unknown;
  /** What the task's settlement captured (micros); absent until settled, and on listings that omit it. */
  costMicros?: bigint | null;
}

/** Where the gateway serves a video's bytes: its own URL, never the upstream's (which expires). */
export function videoContentUrl(baseUrl: string, taskId: string): string {
  return `${baseUrl}/v1/videos/${taskId}/content`;
}

/**
 * A task row as the OpenAI-style video object (gateway interface, "Video task object"): the status in
 * the interface's vocabulary, `completed_at` and `video_url` only once completed, `error` once failed;
 * `seconds`, `size` and `prompt` as the task was planned (a fixed-duration family's own seconds).
 * Rendered by the gateway's video routes and by the webhook events of videos (worker-text).
 */
export function toVideoObject(task: VideoTaskColumns, baseUrl: string): VideoObjectView {
  const call = isJsonObject(task.request) ? task.request : {};
  const status = task.status as VideoStatusValue;
  const completed = status === 'completed';
  return {
    id: task.id,
    object: 'video',
    model: task.model,
    status,
    progress: completed ? 100 : task.progress,
    created_at: unixSeconds(task.createdAt),
    completed_at: completed && task.completedAt ? unixSeconds(task.completedAt) : null,
    expires_at: null,
    ...(completed ? { video_url: videoContentUrl(baseUrl, task.id) } : {}),
    prompt: typeof call['prompt'] === 'string' ? call['prompt'] : null,
    seconds: typeof call['seconds'] === 'number' ? String(call['seconds']) : '',
    size: typeof call['size'] === 'string' ? call['size'] : null,
    remixed_from_video_id: task.remixedFromId,
    error: status === 'failed' ? videoErrorOf(task.failureReason) : null,
    ...costOf(task.costMicros),
  };
}

/** `cost_micros` (a decimal string, as every amount of micros) once the task is settled. */
export function costOf(costMicros: bigint | null | undefined): { cost_micros?: string } {
  return costMicros === null || costMicros === undefined ? {} : { cost_micros: costMicros.toString() };
}

function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
