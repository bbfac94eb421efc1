import type { VideoObjectView, VideoStatusValue } from '@gateway/contracts';
import type { Task } from '@gateway/db';
import { isJsonObject } from '@gateway/providers-core';
import { isPublicTaskId } from '../tasks/public-task-id.util';
import { videoErrorOf } from './video-failure';

/** The columns a video object is made of; a listing's row (its request without inputs) has them too. */
export type VideoTaskColumns = Pick<
  Task,
  'id' | 'model' | 'status' | 'progress' | 'createdAt' | 'completedAt' | 'failureReason' | 'remixedFromId'
> & { request: unknown };

/** The public id prefix of video tasks: a lookup of anything else is a 404 without a query. */
export const VIDEO_TASK_ID_PREFIX = 'video';
/** Every prefix a video task's id may have: the platform's, and `/bt`'s own (beta video made there). */
export const VIDEO_TASK_ID_PREFIXES: readonly string[] = [VIDEO_TASK_ID_PREFIX, 'bt'];

/** Whether `value` has the shape of a video task's public id (the row's kind still decides). */
export function isVideoTaskId(value: string): boolean {
  return VIDEO_TASK_ID_PREFIXES.some((prefix) => isPublicTaskId(value, prefix));
}

/** Where the gateway serves a video's bytes: its own URL, never the upstream's (which expires). */
export function videoContentUrl(baseUrl: string, taskId: string): string {
  return `${baseUrl}/v1/videos/${taskId}/content`;
}

/**
 * A task row as the OpenAI-style video object (gateway interface, "Video task object"): the status in
 * the interface's vocabulary, `completed_at` and `video_url` only once completed, `error` once failed;
 * `seconds`, `size` and `prompt` as the task was planned (a fixed-duration family's own seconds).
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
  };
}

function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
