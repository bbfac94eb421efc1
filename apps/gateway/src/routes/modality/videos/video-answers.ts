import type { UnifiedVideoView, VideoDeletedView, VideoListView, VideoObjectView } from '@gateway/contracts';
import type { Task } from '@gateway/db';
import type { VideoPage, VideoRemoval } from './owned-video-tasks.service';
import { toVideoObject } from './video-object';

/** `GET /v1/videos`: the page in the OpenAI-style list shape. */
export function videoListAnswer(page: VideoPage, baseUrl: string): VideoListView {
  const data = page.tasks.map((task) => toVideoObject(task, baseUrl));
  return {
    object: 'list',
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: page.hasMore,
  };
}

/** `DELETE /v1/videos/{id}`: the deletion, or the cancelled video. */
export function videoRemovalAnswer(
  removal: VideoRemoval,
  baseUrl: string,
): VideoDeletedView | VideoObjectView {
  return removal.deleted
    ? { id: removal.id, object: 'video.deleted', deleted: true }
    : toVideoObject(removal.task, baseUrl);
}

/** The unified routes answer the video object with its id also as `task_id`. */
export function unifiedVideoAnswer(task: Task, baseUrl: string): UnifiedVideoView {
  return { ...toVideoObject(task, baseUrl), task_id: task.id };
}
