import { QUEUE_NAMES, type QueueName } from '../queue-names';

/** What an asynchronous task produces; `tasks.kind`. Music is a video-worker task (same submit → poll shape). */
export const TASK_KINDS = ['image', 'video', 'music', 'asset'] as const;

export type TaskKind = (typeof TASK_KINDS)[number];

export const TASK_QUEUE_BY_KIND: Readonly<Record<TaskKind, QueueName>> = {
  image: QUEUE_NAMES.imageTasks,
  video: QUEUE_NAMES.videoTasks,
  music: QUEUE_NAMES.videoTasks,
  asset: QUEUE_NAMES.assetTasks,
};

/** The kinds whose step jobs run on `queue`. */
export function taskKindsOfQueue(queue: QueueName): TaskKind[] {
  return TASK_KINDS.filter((kind) => TASK_QUEUE_BY_KIND[kind] === queue);
}
