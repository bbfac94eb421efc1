import type { TaskObjectStatus, TaskObjectView, TaskResultView } from '@gateway/contracts';
import type { Task } from '@gateway/db';
import { videoErrorOf } from '../../routes/modality/videos/video-failure';

/** The columns of the row the neutral task object is made of. */
export type TaskObjectColumns = Pick<
  Task,
  'id' | 'kind' | 'model' | 'status' | 'progress' | 'createdAt' | 'completedAt' | 'failureReason'
>;

/**
 * A task row as the neutral task object of `GET /v1/tasks/{id}`. The row's status is already the
 * platform's vocabulary (every kind stores queued → processing → completed | failed | cancelled; each
 * route family only words it its own way), so it is shown as stored. `result` is what the caller
 * resolved for a completed task (the gateway's URLs), `costMicros` what the ledger captured.
 */
export function toTaskObject(
  task: TaskObjectColumns,
  result: TaskResultView | null,
  costMicros: string | null,
): TaskObjectView {
  const status = task.status as TaskObjectStatus;
  const completed = status === 'completed';
  return {
    id: task.id,
    object: 'task',
    kind: task.kind,
    model: task.model,
    status,
    progress: completed ? 100 : task.progress,
    created_at: unixSeconds(task.createdAt),
    completed_at: completed && task.completedAt ? unixSeconds(task.completedAt) : null,
    result: completed ? result : null,
    error: errorOf(task),
    cost_micros: costMicros,
  };
}

function errorOf(task: TaskObjectColumns): TaskObjectView['error'] {
  if (task.status === 'cancelled') return { code: 'cancelled', message: task.failureReason ?? 'cancelled' };
  // The failure reason's words are the platform's for every kind (the step processor writes them).
  return task.status === 'failed' ? videoErrorOf(task.failureReason) : null;
}

function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
