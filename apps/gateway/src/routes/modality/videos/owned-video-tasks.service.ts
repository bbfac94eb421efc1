import { Injectable } from '@nestjs/common';
import type { ResolvedKey } from '@gateway/auth';
import type { Task } from '@gateway/db';
import { isJsonObject } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { TaskRuntimeLoader } from '../../../tasks/task-runtime.loader';
import type { VideoListQuery } from './video-list.query';
import { isVideoTaskId, type VideoTaskColumns } from './video-object';
import { taskStoreUnavailable } from '../../../tasks/task-store-unavailable';

const VIDEO_TASK_KIND = 'video';
const FINISHED: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);
const CANCELLED_BY_CLIENT = 'cancelled by the client';

export interface VideoPage {
  tasks: VideoTaskColumns[];
  hasMore: boolean;
}

/** What a DELETE did: a finished video hidden, or an unfinished one cancelled (its row as it stands). */
export type VideoRemoval = { deleted: true; id: string } | { deleted: false; task: Task };

/**
 * The caller's video tasks, read from their rows (the worker keeps them current; nothing here asks an
 * upstream except to cancel). A task of another account, a deleted one, an id of another shape: 404,
 * never 403, so their existence is not revealed.
 */
@Injectable()
export class OwnedVideoTasks {
  constructor(private readonly tasks: TaskRuntimeLoader) {}

  async find(key: ResolvedKey, taskId: string): Promise<Task> {
    if (!isVideoTaskId(taskId)) throw videoNotFound();
    const runtime = await this.tasks.runtime();
    const task = await runtime.store.findOwned(taskId, key.accountId).catch(taskStoreUnavailable);
    if (!task || task.kind !== VIDEO_TASK_KIND) throw videoNotFound(taskId);
    return task;
  }

  /**
   * One of the caller's video tasks made by a family's official routes; any other id (another
   * account's, another family's, none) is that family's own not-found.
   */
  async findOfFamily(
    key: ResolvedKey,
    taskId: string,
    family: string,
    notFound: () => GatewayError,
  ): Promise<Task> {
    const task = await this.find(key, taskId).catch((error: unknown) => {
      throw error instanceof GatewayError && error.code === 'not_found' ? notFound() : error;
    });
    if (!isJsonObject(task.request) || task.request['family'] !== family) throw notFound();
    return task;
  }

  /** A page of the account's videos; `after` must be one of them. */
  async list(key: ResolvedKey, query: VideoListQuery): Promise<VideoPage> {
    if (query.after !== undefined) {
      await this.find(key, query.after).catch((error: unknown) => {
        if (!(error instanceof GatewayError && error.code === 'not_found')) throw error;
        throw GatewayError.invalidRequest('after is not the id of one of your videos.', 'after');
      });
    }
    const runtime = await this.tasks.runtime();
    const rows = await runtime.store
      .listOwned({
        accountId: key.accountId,
        kind: VIDEO_TASK_KIND,
        order: query.order,
        limit: query.limit + 1,
        ...(query.after === undefined ? {} : { after: query.after }),
      })
      .catch(taskStoreUnavailable);
    return { tasks: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
  }

  /**
   * A finished video leaves listings and answers 404 from then on. An unfinished one is cancelled only
   * where that is free (TaskRuntime.cancel: the upstream never took it, or its wire stopped it), its
   * hold released; otherwise a 409 says why, and it completes and is billed. A task that finished
   * meanwhile is deleted instead.
   */
  async remove(key: ResolvedKey, taskId: string): Promise<VideoRemoval> {
    const task = await this.find(key, taskId);
    const runtime = await this.tasks.runtime();
    if (!FINISHED.has(task.status)) {
      const cancellation = await runtime.cancel(task, CANCELLED_BY_CLIENT).catch(taskStoreUnavailable);
      if (cancellation.kind === 'refused') {
        throw new GatewayError(
          'task_not_cancellable',
          `This video cannot be cancelled: ${cancellation.reason}.`,
          {
            param: 'video_id',
          },
        );
      }
      const current = await this.find(key, taskId);
      if (current.status === 'cancelled') return { deleted: false, task: current };
    }
    const deleted = await runtime.store.markDeleted(task.id, key.accountId).catch(taskStoreUnavailable);
    if (!deleted) throw videoNotFound(taskId);
    return { deleted: true, id: task.id };
  }
}

/** A well-formed id is named in the message; anything else a client sent is not repeated. */
function videoNotFound(taskId?: string): GatewayError {
  const message =
    taskId === undefined ? 'No video found with this id.' : `No video found with id '${taskId}'.`;
  return new GatewayError('not_found', message, { param: 'video_id' });
}
