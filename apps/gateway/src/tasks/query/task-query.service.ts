import { Injectable } from '@nestjs/common';
import type { ResolvedKey } from '@gateway/auth';
import type { TaskObjectView } from '@gateway/contracts';
import type { Task } from '@gateway/db';
import { GatewayError } from '@gateway/errors';
import { TaskRuntimeLoader } from '../task-runtime.loader';
import { taskStoreUnavailable } from '../task-store-unavailable';
import { TaskCostReader } from './task-cost.reader';
import { toTaskObject } from './task-object.view';
import { resolveTaskResult } from './task-result.resolver';

/**
 * The shape of every kind's public id: a route family's prefix, `_`, 128 random bits in base64url
 * (newPublicTaskId). Anything else names no task and costs no query (a NUL Postgres refuses, 10 KB).
 */
export const ANY_PUBLIC_TASK_ID = /^[a-z0-9-]{1,32}_[A-Za-z0-9_-]{22}$/;

/** A task as the neutral query answers it, with its row for the poll hint. */
export interface TaskQueryAnswer {
  task: Task;
  view: TaskObjectView;
}

/**
 * `GET /v1/tasks/{id}`: any of the caller's tasks, whatever its kind. Another account's task, a
 * deleted one and an unknown id answer the same 404, so no existence is revealed.
 */
@Injectable()
export class TaskQueryService {
  constructor(
    private readonly tasks: TaskRuntimeLoader,
    private readonly costs: TaskCostReader,
  ) {}

  async find(key: ResolvedKey, taskId: string, baseUrl: string): Promise<TaskQueryAnswer> {
    if (!ANY_PUBLIC_TASK_ID.test(taskId)) throw taskNotFound();
    const runtime = await this.tasks.runtime();
    const task = await runtime.store.findOwned(taskId, key.accountId).catch(taskStoreUnavailable);
    if (!task) throw taskNotFound();
    const [result, cost] = await Promise.all([
      task.status === 'completed' ? resolveTaskResult(runtime, task, baseUrl) : null,
      this.costs.capturedMicros(task).catch(taskStoreUnavailable),
    ]);
    return { task, view: toTaskObject(task, result, cost) };
  }
}

function taskNotFound(): GatewayError {
  return new GatewayError('not_found', 'No task found with this id.', { param: 'task_id' });
}
