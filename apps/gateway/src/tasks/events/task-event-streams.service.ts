import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { ResolvedKey } from '@gateway/auth';
import type { GatewayConfig } from '@gateway/config';
import type { Task } from '@gateway/db';
import { isTerminalTaskStatus } from '@gateway/tasks/queues';
import { GatewayError } from '@gateway/errors';
import { CONFIG, LOGGER } from '../../platform/infrastructure/tokens';
import { ANY_PUBLIC_TASK_ID, TaskQueryService } from '../query/task-query.service';
import { TaskRuntimeLoader } from '../task-runtime.loader';
import { taskStoreUnavailable } from '../task-store-unavailable';
import type { TaskEvent } from './task-event';
import type { TaskEventHistory } from './task-event.history';
import { TaskEventHub } from './task-event.hub';
import { TaskEventSubscription } from './task-event.subscription';
import { SharedTerminalViews, taskEventViewsOf } from './task-event.views';

/** How an opening ends: the client already saw the task's end, or a stream to write. */
export type TaskEventOpening = 'finished' | TaskEventSubscription;

/** A Last-Event-ID this gateway sent: a positive decimal within JavaScript's safe integers. */
const LAST_EVENT_ID = /^\d{1,15}$/;

/**
 * `GET /v1/tasks/{id}/events`. Opening: the caller's task (404 otherwise), a slot under the caps, then
 * the recorded events read once: a new stream starts with the task's last
 * event (a finished task's terminal event, and the stream ends), a resumed one with every event after
 * its Last-Event-ID. A resumed stream of a task that ended at or before that id answers 204, which
 * tells an EventSource to stop reconnecting. From then on the hub feeds it.
 */
@Injectable()
export class TaskEventStreams {
  private readonly terminalViews: SharedTerminalViews;

  constructor(
    private readonly hub: TaskEventHub,
    private readonly tasks: TaskRuntimeLoader,
    query: TaskQueryService,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.terminalViews = new SharedTerminalViews(query);
  }

  /**
   * `finished` (answered 204), or the stream to write: its slot reserved, which the caller attaches
   * or releases without awaiting anything first.
   */
  async open(
    key: ResolvedKey,
    taskId: string,
    lastEventId: string | string[] | undefined,
    baseUrl: string,
  ): Promise<TaskEventOpening> {
    const resumeAfter = lastEventIdOf(lastEventId);
    const task = await this.ownedTask(key, taskId);
    this.hub.reserve(key.accountId);
    let opened = false;
    try {
      const backlog = await backlogOf(this.hub.history, task, resumeAfter).catch(taskStoreUnavailable);
      if (backlog === 'finished') return 'finished';
      const subscription = new TaskEventSubscription(
        this.hub,
        {
          taskId: task.id,
          accountId: key.accountId,
          lastSeq: resumeAfter ?? -1,
          heartbeatMs: this.config.taskEvents.heartbeatMs,
          views: taskEventViewsOf(task, key, baseUrl, this.terminalViews),
          since: (id, afterSeq) => this.hub.history.since(id, afterSeq),
          onEnd: (ended) => this.hub.detach(ended),
          onError: (error) =>
            this.logger.warn({ err: error, taskId: task.id }, 'task event stream ended early'),
        },
        backlog,
        lastSeqOf(backlog, resumeAfter),
      );
      opened = true;
      return subscription;
    } finally {
      if (!opened) this.hub.release(key.accountId);
    }
  }

  private async ownedTask(key: ResolvedKey, taskId: string): Promise<Task> {
    if (!ANY_PUBLIC_TASK_ID.test(taskId)) throw taskNotFound();
    const runtime = await this.tasks.runtime();
    const task = await runtime.store.findOwned(taskId, key.accountId).catch(taskStoreUnavailable);
    if (!task) throw taskNotFound();
    return task;
  }
}

/**
 * What a stream sends first. New: the task's last recorded event, or its row's state as event 0 when
 * none is kept (a task older than the recorded events). Resumed: every event after the id; `finished`
 * when there is none and the task has ended (the client saw its end).
 */
async function backlogOf(
  history: TaskEventHistory,
  task: Task,
  resumeAfter: number | undefined,
): Promise<TaskEvent[] | 'finished'> {
  if (resumeAfter !== undefined) {
    const missed = await history.since(task.id, resumeAfter);
    if (missed.length === 0 && isTerminalTaskStatus(task.status)) return 'finished';
    return missed;
  }
  const latest = await history.latest(task.id);
  return [latest ?? eventOfRow(task)];
}

/** The last event id the opening read: where the feed starts following a task no stream followed yet. */
function lastSeqOf(backlog: TaskEvent[], resumeAfter: number | undefined): number {
  return backlog.reduce((last, event) => Math.max(last, event.seq), resumeAfter ?? 0);
}

function eventOfRow(task: Task): TaskEvent {
  return { seq: 0, taskId: task.id, status: task.status as TaskEvent['status'], progress: task.progress };
}

function lastEventIdOf(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header[header.length - 1] : header;
  if (!LAST_EVENT_ID.test(value)) {
    throw GatewayError.invalidRequest(
      'Last-Event-ID must be the id of an event this stream sent (a decimal number).',
      'Last-Event-ID',
    );
  }
  return Number(value);
}

function taskNotFound(): GatewayError {
  return new GatewayError('not_found', 'No task found with this id.', { param: 'task_id' });
}
