import type { Task } from '@gateway/db';
import type { AdapterContext, Clock, TaskAdapter, TaskCompleted, TaskFailed } from '@gateway/providers-core';
import type { TaskPollSnapshot } from './task-poll-snapshot';
import type { HoldReleaseReason } from './task-end-reason';
import type { TaskStatus } from './task-status';
import type { TaskStore } from './task-store';

/** How a task ended upstream; handed to `settle` by the writer that won the terminal transition. */
export type TaskOutcome = TaskCompleted | TaskFailed;

/**
 * What a task's settlement reads of its outcome: a completed task's outputs, or only that it failed
 * (the log row's end reason comes from the task's status; its failure is on the task's row). A failure
 * after an upstream's answer that is not an upstream error (an image job's images that could not be
 * retrieved) settles so too.
 */
export type SettledOutcome = TaskCompleted | Pick<TaskFailed, 'state'>;

/** What calling the task's channel takes, resolved from its channel row. */
export interface TaskChannelConnection {
  context: AdapterContext;
  /** The task's model after the channel's model mapping. */
  upstreamModel: string;
  /** The channel's ceiling on polls per second across every worker (Channel.pollsPerSecond); none: unlimited. */
  pollsPerSecond?: number;
}

/** The task fields that finding and connecting its channel read (a poll snapshot carries them too). */
export type TaskChannelRef = Pick<Task, 'id' | 'channelId' | 'model'>;

export interface TaskChannelResolver {
  /** The channel type the task was routed to; undefined when it has no channel or the row is gone. */
  channelTypeOf(task: Pick<Task, 'channelId'>): Promise<string | undefined>;
  /** Asked only once an adapter exists for the channel type (it decrypts the channel secret). */
  connect(task: TaskChannelRef): Promise<TaskChannelConnection>;
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
  /**
   * Least time between two progress-only writes of one task (progressWriteDue); status changes are
   * never held back. TASK_PROGRESS_WRITE_INTERVAL_MS.
   */
  progressWriteIntervalMs: number;
}

export const DEFAULT_TASK_STEP_TIMING: TaskStepTiming = {
  minPollDelayMs: 1_000,
  maxPollDelayMs: 30_000,
  submissionTimeoutMs: 120_000,
  // A client polling a task or following its progress stream sees progress at most this stale while
  // the upstream moves it, and a young task (polled every second, a tenth of its age) writes at most
  // one progress row in five polls; past 50 s of age the polls are this far apart anyway.
  progressWriteIntervalMs: 5_000,
};

/** What the metrics hear from the step processor (TaskMetrics of libs/observability). */
export interface TaskStepMetrics {
  entered(kind: string | null, status: TaskStatus): void;
  polledPending(taskId: string, atMs: number): void;
  ended(kind: string | null, taskId: string, status: TaskStatus, atMs: number): void;
  forget(taskId: string): void;
}

export interface TaskStepDependencies {
  store: TaskStore;
  /** Asynchronous adapters by channel type. */
  adapters: ReadonlyMap<string, TaskAdapter>;
  channels: TaskChannelResolver;
  /** Releases a hold in full; used when the task ends without an upstream outcome. */
  releaseHold(holdRequestId: string, reason?: HoldReleaseReason): Promise<void>;
  /** Captures or releases the task's hold for an upstream outcome. */
  settle(task: Task, outcome: TaskOutcome): Promise<void>;
  clock: Clock;
  logger: TaskStepLogger;
  timing?: Partial<TaskStepTiming>;
  /** Transitions and completion lag; none in tests that do not ask. */
  metrics?: TaskStepMetrics;
  /** Spaces the polls of a channel with a poll-rate ceiling, across workers; none: no ceiling is enforced. */
  pollGate?: PollRateGate;
}

/**
 * A channel's polls per second, shared by every worker: `reserve` books the channel's next turn and
 * says in how many milliseconds it comes (0: poll now). A booked turn is kept: the step that waits for
 * it polls without asking again.
 */
export interface PollRateGate {
  reserve(channelId: string, pollsPerSecond: number): Promise<number>;
}

export type TaskStepResult =
  /** Nothing left to do for this job; `status` is the task's status after the step (undefined: no such task). */
  | { kind: 'finished'; status: TaskStatus | undefined }
  /**
   * Run the step again after `delayMs`. `poll`: what the next poll needs, for the job to carry (none:
   * the next step reads the row); `pollTurnAtMs`: a turn booked at the channel's poll-rate gate.
   */
  | { kind: 'wait'; delayMs: number; poll?: TaskPollSnapshot; pollTurnAtMs?: number };
