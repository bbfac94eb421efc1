import type { Task } from '@gateway/db';
import { GatewayError } from '@gateway/errors';

/** The 404 of every admin route under /admin/tasks/{id}. */
export function taskNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No task has the id "${id}".`);
}

/** The 409 of an operator's cancel of a task that has already ended (its hold is settled). */
export function taskAlreadyEnded(task: Pick<Task, 'id' | 'status'>): GatewayError {
  return new GatewayError(
    'conflict',
    `Task ${task.id} has already ended (${task.status}); nothing to cancel.`,
  );
}

/** The 409 of a refund the task's state does not allow; `why` completes the sentence. */
export function taskNotRefundable(id: string, why: string): GatewayError {
  return new GatewayError('conflict', `Task ${id} cannot be refunded: ${why}.`);
}
