import type { Task } from '@gateway/db';
import { isTerminalTaskStatus } from '@gateway/tasks';
import type { TaskDetailView, TaskTimelineEntryView, TaskTimelineEvent } from './task-detail.view';
import type { TaskMoney } from './task-money.reader';
import type { AdminTaskView } from './task.view';
import { taskContentUrl } from './task-content.util';

export function toAdminTaskView(task: Task, money: TaskMoney, now: Date): AdminTaskView {
  return {
    id: task.id,
    kind: task.kind,
    status: task.status,
    progress: task.progress,
    model: task.model,
    accountId: task.accountId,
    keyId: task.keyId,
    channelId: task.channelId,
    failureReason: task.failureReason,
    stuck: !isTerminalTaskStatus(task.status) && task.deadlineAt.getTime() < now.getTime(),
    deadlineAt: task.deadlineAt.toISOString(),
    createdAt: task.createdAt.toISOString(),
    updatedAt: task.updatedAt.toISOString(),
    completedAt: task.completedAt?.toISOString() ?? null,
    money: money.view,
  };
}

export function toTaskDetailView(
  task: Task,
  money: TaskMoney,
  attempts: number | null,
  now: Date,
): TaskDetailView {
  return {
    ...toAdminTaskView(task, money, now),
    upstreamHandle: isRecord(task.upstreamHandle) ? task.upstreamHandle : null,
    attempts,
    remixedFromId: task.remixedFromId,
    contentUrl: taskContentUrl(task),
    timeline: timelineOf(task, money),
  };
}

/** Every time the row, its hold and the ledger keep, oldest first (ties keep the lifecycle's order). */
export function timelineOf(task: Task, money: TaskMoney): TaskTimelineEntryView[] {
  const events: Array<[TaskTimelineEvent, Date | null]> = [
    ['created', task.createdAt],
    ['completed', task.completedAt],
    ['hold_settled', money.holdSettledAt],
    ['captured', money.capturedAt],
    ['refunded', money.refundedAt],
    ['request_cleared', task.requestClearedAt],
    ['deleted', task.deletedAt],
    ['last_written', task.updatedAt],
  ];
  return events
    .flatMap(([event, at]) => (at === null ? [] : [{ event, at }]))
    .sort((left, right) => left.at.getTime() - right.at.getTime())
    .map(({ event, at }) => ({ event, at: at.toISOString() }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
