import { Injectable } from '@nestjs/common';
import type { ResolvedKey } from '@gateway/auth';
import type { Task } from '@gateway/db';
import { GatewayError } from '@gateway/errors';
import { isPublicTaskId } from '../../../tasks/public-task-id.util';
import { TaskRuntimeLoader } from '../../../tasks/task-runtime.loader';
import { taskStoreUnavailable } from '../../../tasks/task-store-unavailable';
import { MUSIC_TASK_ID_PREFIX, MUSIC_TASK_KIND } from './music-task.constants';

/**
 * The caller's music tasks, read from their rows. A task of another account, a deleted one, a task
 * of another kind or an id of another shape is not found (a 404 alone, left out of a batch), never a
 * 403, so its existence is not revealed; an id of another shape costs no query.
 */
@Injectable()
export class OwnedMusicTasks {
  constructor(private readonly tasks: TaskRuntimeLoader) {}

  async find(key: ResolvedKey, taskId: string): Promise<Task> {
    const task = await this.findOrUndefined(key, taskId);
    if (!task)
      throw new GatewayError('not_found', `No music task found with id '${taskId}'.`, { param: 'id' });
    return task;
  }

  async findOrUndefined(key: ResolvedKey, taskId: string): Promise<Task | undefined> {
    if (!isPublicTaskId(taskId, MUSIC_TASK_ID_PREFIX)) return undefined;
    const runtime = await this.tasks.runtime();
    const task = await runtime.store.findOwned(taskId, key.accountId).catch(taskStoreUnavailable);
    return task?.kind === MUSIC_TASK_KIND ? task : undefined;
  }

  /** The caller's music tasks among the ids, in the order asked, each once. */
  async findMany(key: ResolvedKey, taskIds: readonly string[]): Promise<Task[]> {
    const wanted = [...new Set(taskIds)].filter((taskId) => isPublicTaskId(taskId, MUSIC_TASK_ID_PREFIX));
    if (wanted.length === 0) return [];
    const runtime = await this.tasks.runtime();
    const found = new Map(
      (await runtime.store.findOwnedMany(wanted, key.accountId).catch(taskStoreUnavailable))
        .filter((task) => task.kind === MUSIC_TASK_KIND)
        .map((task) => [task.id, task]),
    );
    return wanted.flatMap((taskId) => {
      const task = found.get(taskId);
      return task ? [task] : [];
    });
  }
}
