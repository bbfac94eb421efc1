import type { Task } from '@gateway/db';
import type { AdapterContext, Clock, TaskAdapter, TaskCompleted, TaskFailed } from '@gateway/providers-core';
import type { TaskStatus } from './task-status';
import type { TaskStore } from './task-store';

/** How a task ended upstream; handed to `settle` by the writer that won the terminal transition. */
export type TaskOutcome = TaskCompleted | TaskFailed;

/** What calling the task's channel takes, resolved from its channel row. */
export interface TaskChannelConnection {
  context: AdapterContext;
  /** The task's model after the channel's model mapping. */
  upstreamModel: string;
}

export interface TaskChannelResolver {
  /** The channel type the task was routed to; undefined when it has no channel or the row is gone. */
  channelTypeOf(task: Task): Promise<string | undefined>;
  /** Asked only once an adapter exists for the channel type (it decrypts the channel secret). */
  connect(task: Task): Promise<TaskChannelConnection>;
}

export interface TaskStepLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface TaskStepTiming {
  /** Lower bound between two polls, whatever the upstream hints. */
  minPollDelayMs: number;
  /** Upper bound between two polls. */
  maxPollDelayMs: number;
  /**
   * How long a claimed submission may go without a stored handle before its outcome counts as
   * unknown: until then another run may still be waiting for the upstream's answer.
   */
  submissionTimeoutMs: number;
}

export const DEFAULT_TASK_STEP_TIMING: TaskStepTiming = {
  minPollDelayMs: 1_000,
  maxPollDelayMs: 30_000,
  submissionTimeoutMs: 120_000,
};

export interface TaskStepDependencies {
  store: TaskStore;
  /** Asynchronous adapters by channel type. */
  adapters: ReadonlyMap<string, TaskAdapter>;
  channels: TaskChannelResolver;
  /** Releases a hold in full; used when the task ends without an upstream outcome. */
  releaseHold(holdRequestId: string): Promise<void>;
  /** Captures or releases the task's hold for an upstream outcome. */
  settle(task: Task, outcome: TaskOutcome): Promise<void>;
  clock: Clock;
  logger: TaskStepLogger;
  timing?: Partial<TaskStepTiming>;
}

export type TaskStepResult =
  /** Nothing left to do for this job; `status` is the task's status after the step (undefined: no such task). */
  | { kind: 'finished'; status: TaskStatus | undefined }
  /** Run the step again after `delayMs`. */
  | { kind: 'wait'; delayMs: number };
