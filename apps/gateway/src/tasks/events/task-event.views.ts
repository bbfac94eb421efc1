import type { ResolvedKey } from '@gateway/auth';
import type { TaskObjectView } from '@gateway/contracts';
import type { Task } from '@gateway/db';
import { toTaskObject } from '../query/task-object.view';
import type { TaskQueryAnswer, TaskQueryService } from '../query/task-query.service';
import type { TaskEvent } from './task-event';
import type { TaskEventViews } from './task-event.stream';

/**
 * How long the terminal view of a task is shared by the streams that follow it: the thousand streams of
 * one task cost one read (and, for music and `/bt` images, one upstream poll) when it ends, not a thousand.
 */
const TERMINAL_VIEW_SHARED_MS = 10_000;

/** Terminal views being read or read lately, by account, task and public base URL. */
export class SharedTerminalViews {
  private readonly views = new Map<string, Promise<TaskQueryAnswer>>();

  constructor(private readonly query: TaskQueryService) {}

  read(key: ResolvedKey, taskId: string, baseUrl: string): Promise<TaskQueryAnswer> {
    const id = `${key.accountId} ${taskId} ${baseUrl}`;
    let view = this.views.get(id);
    if (!view) {
      view = this.query.find(key, taskId, baseUrl);
      this.views.set(id, view);
      const forget = () => setTimeout(() => this.views.delete(id), TERMINAL_VIEW_SHARED_MS).unref();
      // A failed read is not shared: the next stream asks again.
      view.then(forget, () => this.views.delete(id));
    }
    return view;
  }
}

/** The views of one stream: its progress events from the row it opened with, its end read again. */
export function taskEventViewsOf(
  task: Task,
  key: ResolvedKey,
  baseUrl: string,
  terminalViews: SharedTerminalViews,
): TaskEventViews {
  return {
    progress: (event: TaskEvent): TaskObjectView =>
      toTaskObject(
        { ...task, status: event.status, progress: event.progress, completedAt: null, failureReason: null },
        null,
        null,
      ),
    terminal: async (): Promise<TaskObjectView> => (await terminalViews.read(key, task.id, baseUrl)).view,
  };
}
