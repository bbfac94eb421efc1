import type { Task } from '@gateway/db';
import {
  UpstreamError,
  failureReasonOf,
  upstreamFailureOfReason,
  type TaskAdapter,
  type TaskFailed,
  type TaskPollResult,
} from '@gateway/providers-core';
import { errorMessageOf } from '@gateway/observability';
import type { Job } from 'bullmq';
import type { TaskStepJob } from '../jobs/task-step.job';
import type { JsonHandle, JsonObject } from './json-value';
import { bindTaskAdapter, type BoundTaskAdapter } from './task-adapter.binding';
import { nextPollDelayMs } from './poll-delay.util';
import { producedByTask } from './task-produced.util';
import { releaseReasonOf } from './task-end-reason';
import {
  isTaskPollSnapshot,
  pollSnapshotOf,
  polledTaskOf,
  progressWriteDue,
  ROW_RECHECK_MS,
  type PolledTask,
  type TaskPollSnapshot,
} from './task-poll-snapshot';
import { isTaskStatus, TERMINAL_TASK_STATUSES, type TaskStatus } from './task-status';
import {
  DEFAULT_TASK_STEP_TIMING,
  type TaskOutcome,
  type TaskStepDependencies,
  type TaskStepResult,
  type TaskStepTiming,
} from './task-step.types';

type OpenStatus = Exclude<TaskStatus, 'completed' | 'failed' | 'cancelled'>;

/** An upstream's answer to a poll, or the classified failure it answered with. */
type PollAnswer = { result: TaskPollResult } | { error: UpstreamError };

type TaskStepWait = Extract<TaskStepResult, { kind: 'wait' }>;

/** A turn booked at the channel's poll-rate gate and not yet used, if the step holds one. */
type PollTurn = number | undefined;

/** What a poll answers once the upstream no longer has the task's record (a wire's cancel deletes it). */
const RECORD_GONE_STATUS = 404;

export const DEADLINE_EXCEEDED = 'deadline exceeded';
export const SUBMISSION_OUTCOME_UNKNOWN =
  'submission outcome unknown after an interrupted run; not resubmitted to avoid a second upstream task';

/**
 * One step of an asynchronous task, safe to re-run at any point: claim → submit → store the handle
 * → poll, re-scheduling itself as a delayed job between polls (never sleeping). Only the writer
 * that wins a terminal compare-and-swap settles or releases the hold.
 */
export class TaskStepProcessor {
  private readonly timing: TaskStepTiming;

  constructor(private readonly deps: TaskStepDependencies) {
    this.timing = { ...DEFAULT_TASK_STEP_TIMING, ...deps.timing };
  }

  /**
   * A step job's run. A step that must wait moves its own job to the delayed set and answers its
   * wait; the worker's consumer then tells BullMQ so (runStepJob), without using up an attempt.
   */
  async process(
    job: Pick<Job<TaskStepJob>, 'data' | 'moveToDelayed' | 'updateData'>,
    token?: string,
  ): Promise<TaskStepResult> {
    const { taskId, poll, pollTurnAtMs } = job.data;
    const turn = typeof pollTurnAtMs === 'number' ? pollTurnAtMs : undefined;
    const result = isTaskPollSnapshot(poll)
      ? await this.pollBySnapshot(taskId, poll, turn)
      : await this.runStep(taskId, turn);
    if (result.kind === 'finished') return result;
    // The job's data is rewritten (one Redis call) only when what the next poll needs changed: a poll
    // that found nothing new hands back the very snapshot it was given.
    if (result.poll !== poll || result.pollTurnAtMs !== pollTurnAtMs) {
      const { poll: _poll, pollTurnAtMs: _turn, ...rest } = job.data;
      await job.updateData({
        ...rest,
        ...(result.poll ? { poll: result.poll } : {}),
        ...(result.pollTurnAtMs === undefined ? {} : { pollTurnAtMs: result.pollTurnAtMs }),
      });
    }
    await job.moveToDelayed(Date.now() + result.delayMs, token);
    return result;
  }

  /** One step from the task's row. `turn`: a poll-rate turn the step's job booked earlier. */
  async runStep(taskId: string, turn?: PollTurn): Promise<TaskStepResult> {
    // Steps read rows in bursts (tasks created together are checked and end together): reads share a query.
    const task = await this.deps.store.findByIdAmongMany(taskId);
    if (!task) {
      this.deps.logger.warn({ taskId }, 'task step for a task that does not exist');
      return { kind: 'finished', status: undefined };
    }
    return this.stepRow(task, turn);
  }

  private async stepRow(task: Task, turn: PollTurn): Promise<TaskStepResult> {
    const status = openStatusOf(task);
    if (!status) {
      await this.settleFinished(task);
      return { kind: 'finished', status: isTaskStatus(task.status) ? task.status : undefined };
    }
    if (this.now() >= task.deadlineAt.getTime()) return this.expire(task, status);

    const bound = await this.bind(task);
    if (typeof bound === 'string') return this.abandon(task, status, bound);
    if (task.upstreamHandle === null) return this.startSubmission(task, status, bound);
    // A type polled in batches (TaskAdapter.pollMany) is asked about by its batch poller; the step
    // only wakes again at the deadline, to reconcile the task if it is still open then.
    if (bound.adapter.pollMany) return this.waitFor(task.deadlineAt.getTime() - this.now());
    return this.poll(task, task.upstreamHandle as JsonHandle, bound, turn);
  }

  /**
   * A poll from the snapshot the job carries: an answer with nothing new costs the upstream call and
   * no statement (a new progress counts once the write interval has passed, see progressWriteDue).
   * Anything else (progress due, an end, a failure that is not passing, the deadline, a snapshot due
   * for a check) reads or writes the row, and the row's compare-and-swaps decide.
   */
  private async pollBySnapshot(
    taskId: string,
    snapshot: TaskPollSnapshot,
    turn: PollTurn,
  ): Promise<TaskStepResult> {
    const now = this.now();
    if (now >= snapshot.deadlineAtMs || now - snapshot.rowReadAtMs >= ROW_RECHECK_MS) {
      return this.runStep(taskId, turn);
    }
    const task = polledTaskOf(taskId, snapshot);
    const bound = await this.bind(task);
    if (typeof bound === 'string' || bound.adapter.pollMany) return this.runStep(taskId, turn);
    const wait = await this.waitForTurn(task, bound, turn);
    if (wait) return { ...wait, poll: snapshot };
    const answer = await this.ask(bound, snapshot.handle);
    if ('result' in answer && answer.result.state === 'pending') {
      const progress = progressOf(answer.result);
      const delayMs = nextPollDelayMs(task, this.now(), this.timing, answer.result.retryAfterMs);
      if (
        progress === undefined ||
        !this.progressDue(snapshot.progress, progress, snapshot.progressWrittenAtMs)
      ) {
        this.deps.metrics?.polledPending(taskId, this.now());
        return { ...this.waitFor(delayMs), poll: snapshot };
      }
      // Progress alone moved: one compare-and-swap on the status, without reading the row first. A task
      // that left `processing` meanwhile loses it and is read.
      if (!(await this.deps.store.updateWhile(taskId, 'processing', { progress }))) {
        return this.finishedAsStored(taskId);
      }
      this.deps.metrics?.polledPending(taskId, this.now());
      return { ...this.waitFor(delayMs), poll: { ...snapshot, progress, progressWrittenAtMs: this.now() } };
    } else if ('error' in answer && answer.error.failure.retryable) {
      const delayMs = nextPollDelayMs(task, this.now(), this.timing, answer.error.failure.retryAfterMs);
      return { ...this.waitFor(delayMs), poll: snapshot };
    }
    const row = await this.deps.store.findByIdAmongMany(taskId);
    if (!row || row.status !== 'processing' || row.upstreamHandle === null) {
      return row ? this.stepRow(row, undefined) : this.runStep(taskId);
    }
    return this.recordAnswer(row, answer);
  }

  /**
   * Undefined when the task may be polled now; else a wait until the turn booked at the channel's
   * poll-rate gate. A turn booked earlier and now due is used, not booked again.
   */
  private async waitForTurn(
    task: Pick<Task, 'channelId'>,
    bound: BoundTaskAdapter,
    turn: PollTurn,
  ): Promise<TaskStepWait | undefined> {
    const gate = this.deps.pollGate;
    if (!gate || bound.pollsPerSecond === undefined || task.channelId === null) return undefined;
    if (turn !== undefined && turn <= this.now() + TURN_EARLY_MS) return undefined;
    const delayMs = await gate.reserve(task.channelId, bound.pollsPerSecond);
    if (delayMs <= TURN_EARLY_MS) return undefined;
    return { ...this.waitFor(delayMs), pollTurnAtMs: this.now() + delayMs };
  }

  private async ask(bound: BoundTaskAdapter, handle: JsonHandle): Promise<PollAnswer> {
    try {
      return { result: await bound.adapter.poll(handle, bound.context) };
    } catch (error) {
      // Anything but a classified upstream failure (a bug, a lost connection) fails the attempt.
      if (!(error instanceof UpstreamError)) throw error;
      return { error };
    }
  }

  /** The adapter of the task's channel type, or why there is none. */
  private bind(task: PolledTask): Promise<BoundTaskAdapter | string> {
    return bindTaskAdapter(task, this.deps.adapters, this.deps.channels);
  }

  private async startSubmission(
    task: Task,
    status: OpenStatus,
    bound: BoundTaskAdapter,
  ): Promise<TaskStepResult> {
    if (status === 'queued') {
      // The claim is stored before the upstream call: a re-run that finds `processing` without a
      // handle knows a submission may have reached the upstream.
      const claimed = await this.deps.store.transition(task.id, 'queued', 'processing');
      if (!claimed) return this.waitFor(this.timing.minPollDelayMs);
      this.deps.metrics?.entered(task.kind, 'processing');
      return this.submit(task, bound);
    }
    const claimAgeMs = this.now() - task.updatedAt.getTime();
    if (claimAgeMs < this.timing.submissionTimeoutMs) {
      return this.waitFor(this.timing.submissionTimeoutMs - claimAgeMs);
    }
    return this.recoverSubmission(task, bound);
  }

  private async submit(task: Task, bound: BoundTaskAdapter): Promise<TaskStepResult> {
    let handle: JsonHandle;
    try {
      const request = { upstreamModel: bound.upstreamModel, request: task.request as JsonObject };
      ({ handle } = await bound.adapter.submit(request, bound.context));
    } catch (error) {
      // An upstream that answered with an error created nothing: a refusal ends the task, except a
      // passing one (rate limit, overload) where the task can be safely sent again, which the recovery
      // after the submission timeout does, within the deadline. Any other failure leaves the outcome
      // unknown, and only that recovery may decide.
      if (
        error instanceof UpstreamError &&
        error.failure.httpStatus !== undefined &&
        !(error.failure.retryable && canResubmit(bound.adapter))
      ) {
        return this.finish(task, 'processing', { state: 'failed', failure: error.failure });
      }
      this.deps.logger.warn(
        { taskId: task.id, error: errorMessageOf(error) },
        'task submission refused for now or unanswered; recovered after the submission timeout',
      );
      return this.waitFor(this.timing.submissionTimeoutMs);
    }
    return this.storeHandle(task, handle);
  }

  /**
   * A submission was interrupted: adopt the upstream task it created, or resubmit only if none exists,
   * or resubmit anyway to an upstream that de-duplicates by the submission key (it answers with the
   * task the interrupted run created, if any). The reclaim lets one run only do it.
   */
  private async recoverSubmission(task: Task, bound: BoundTaskAdapter): Promise<TaskStepResult> {
    const { adapter, context } = bound;
    if (adapter.findSubmission) {
      const found = await adapter.findSubmission(task.id, context);
      if (found) return this.storeHandle(task, found.handle);
    } else if (adapter.idempotentSubmit !== true) {
      return this.abandon(task, 'processing', SUBMISSION_OUTCOME_UNKNOWN);
    }
    const reclaimed = await this.deps.store.reclaimSubmission(task.id, task.updatedAt);
    if (!reclaimed) return this.waitFor(this.timing.minPollDelayMs);
    return this.submit(task, bound);
  }

  private async storeHandle(task: Task, handle: JsonHandle): Promise<TaskStepResult> {
    const stored = await this.deps.store.storeHandle(task.id, handle);
    if (!stored) {
      this.deps.logger.warn({ taskId: task.id }, 'task left processing while its submission was in flight');
      return this.finishedAsStored(task.id);
    }
    this.deps.logger.info({ taskId: task.id }, 'task submitted upstream');
    const delayMs = nextPollDelayMs(task, this.now(), this.timing);
    // The row was just written (its handle): the progress write interval counts from now.
    const written = { ...task, updatedAt: new Date(this.now()) };
    return { ...this.waitFor(delayMs), poll: pollSnapshotOf(written, handle, this.now()) };
  }

  private async poll(
    task: Task,
    handle: JsonHandle,
    bound: BoundTaskAdapter,
    turn: PollTurn,
  ): Promise<TaskStepResult> {
    const wait = await this.waitForTurn(task, bound, turn);
    if (wait) return { ...wait, poll: this.snapshotOf(task, task.progress) };
    return this.recordAnswer(task, await this.ask(bound, handle));
  }

  private recordAnswer(task: Task, answer: PollAnswer): Promise<TaskStepResult> | TaskStepResult {
    if ('result' in answer) return this.recordPoll(task, answer.result);
    const { failure } = answer.error;
    if (!failure.retryable) return this.recordPoll(task, { state: 'failed', failure });
    const delayMs = nextPollDelayMs(task, this.now(), this.timing, failure.retryAfterMs);
    return { ...this.waitFor(delayMs), poll: this.snapshotOf(task, task.progress) };
  }

  /** What the job carries to poll `task` next without reading its row; none for a task without a handle. */
  private snapshotOf(task: Task, progress: number): TaskPollSnapshot | undefined {
    if (task.upstreamHandle === null) return undefined;
    return pollSnapshotOf({ ...task, progress }, task.upstreamHandle as JsonHandle, this.now());
  }

  /**
   * Records one answer about a task that is `processing`, as a step records its own poll: a terminal
   * answer by compare-and-swap (the winner settles), a pending one as progress. Also for a batch
   * poller, which asked about many tasks in one call (TaskAdapter.pollMany).
   */
  async recordPoll(task: Task, result: TaskPollResult): Promise<TaskStepResult> {
    if (result.state === 'failed' && result.failure.httpStatus === RECORD_GONE_STATUS) {
      return this.finish(task, 'processing', await this.goneRecordOutcome(task.id, result));
    }
    if (result.state !== 'pending') return this.finish(task, 'processing', result);
    this.deps.metrics?.polledPending(task.id, this.now());
    const progress = progressOf(result);
    // A progress-only write costs a task_events row too (the tasks trigger): only when it moved, and at
    // most once per interval; the row's last write stands for the last progress write.
    if (progress !== undefined && this.progressDue(task.progress, progress, task.updatedAt.getTime())) {
      const written = await this.deps.store.updateWhile(task.id, 'processing', { progress });
      if (!written) return this.finishedAsStored(task.id);
      const delayMs = nextPollDelayMs(task, this.now(), this.timing, result.retryAfterMs);
      return {
        ...this.waitFor(delayMs),
        poll: this.snapshotOf({ ...task, progress, updatedAt: new Date(this.now()) }, progress),
      };
    }
    const delayMs = nextPollDelayMs(task, this.now(), this.timing, result.retryAfterMs);
    return { ...this.waitFor(delayMs), poll: this.snapshotOf(task, task.progress) };
  }

  /**
   * The upstream no longer has the task's record. A client's cancel deletes it on the wires that can
   * cancel, and marks the row just before (TaskCanceller): such a task ends cancelled, as its client
   * asked, its hold released in full. The mark is read from the row, since `task` may have been read
   * before the cancel began; any other lost record fails the task. An upstream that lost many records
   * at once (a batch poll's answer) has their rows read together.
   */
  private async goneRecordOutcome(taskId: string, result: TaskFailed): Promise<TaskFailed> {
    const row = await this.deps.store.findByIdAmongMany(taskId);
    if (row?.cancelSentAt == null) return result;
    return {
      state: 'failed',
      cancelled: true,
      failure: { ...result.failure, message: 'the upstream deleted the task its client cancelled' },
    };
  }

  /** Past the deadline: ask the upstream one last time if it can be asked, else fail and release. */
  private async expire(task: Task, status: OpenStatus): Promise<TaskStepResult> {
    if (task.upstreamHandle !== null && status === 'processing') {
      const bound = await this.bind(task);
      const result = typeof bound === 'string' ? undefined : await this.pollOnce(task, bound);
      if (result && result.state !== 'pending') return this.finish(task, status, result);
    }
    return this.abandon(task, status, DEADLINE_EXCEEDED);
  }

  private async pollOnce(task: Task, bound: BoundTaskAdapter): Promise<TaskPollResult | undefined> {
    try {
      return await bound.adapter.poll(task.upstreamHandle as JsonHandle, bound.context);
    } catch (error) {
      this.deps.logger.warn(
        { taskId: task.id, error: errorMessageOf(error) },
        'last poll before the deadline failed',
      );
      return undefined;
    }
  }

  /**
   * Terminal transition for an upstream outcome; the winner settles. What a completed task produced
   * (images, seconds) is written in the same compare-and-swap: a settlement re-run after a crash
   * captures from the row, so it captures what the first attempt would have.
   */
  private async finish(task: Task, from: OpenStatus, outcome: TaskOutcome): Promise<TaskStepResult> {
    const patch =
      outcome.state === 'completed'
        ? {
            progress: 100,
            resultUrl: outcome.outputs[0]?.url ?? null,
            ...producedByTask(task, outcome),
            completedAt: new Date(this.now()),
          }
        : { failureReason: failureReasonOf(outcome.failure) };
    const status = outcome.state === 'failed' && outcome.cancelled ? 'cancelled' : outcome.state;
    const won = await this.deps.store.transition(task.id, from, status, patch);
    if (!won) return this.finishedAsStored(task.id);
    this.deps.metrics?.ended(task.kind, task.id, status, this.now());
    this.deps.logger.info({ taskId: task.id, status }, 'task finished upstream');
    await this.deps.settle({ ...task, ...patch, status }, outcome);
    return { kind: 'finished', status };
  }

  /**
   * A worker may die between winning the terminal transition and settling. Settlement applies once per
   * hold, so a re-run settles again: a no-op when the first settlement landed, the missing one otherwise,
   * capturing what the transition stored the task produced. A task its upstream failed (its failure
   * reason says so) is settled as the winner would have, its log row ending `upstream_error`.
   */
  private async settleFinished(task: Task): Promise<void> {
    if (task.holdRequestId === null) return;
    const failure = task.status === 'failed' ? upstreamFailureOfReason(task.failureReason) : undefined;
    if (task.status === 'completed') {
      const outputs = task.resultUrl === null ? [] : [{ url: task.resultUrl }];
      await this.deps.settle(task, { state: 'completed', outputs, warnings: [] });
    } else if (failure) {
      await this.deps.settle(task, { state: 'failed', failure });
    } else {
      await this.deps.releaseHold(task.holdRequestId, releaseReasonOf(task.status));
    }
  }

  /** Terminal failure without an upstream outcome; the winner releases the hold in full. */
  private async abandon(task: Task, from: OpenStatus, reason: string): Promise<TaskStepResult> {
    const won = await this.deps.store.transition(task.id, from, 'failed', { failureReason: reason });
    if (!won) return this.finishedAsStored(task.id);
    this.deps.metrics?.entered(task.kind, 'failed');
    this.deps.metrics?.forget(task.id);
    this.deps.logger.info({ taskId: task.id, reason }, 'task failed');
    if (task.holdRequestId !== null) await this.deps.releaseHold(task.holdRequestId);
    return { kind: 'finished', status: 'failed' };
  }

  /** After a lost compare-and-swap: whoever won owns the task now; report what they wrote. */
  private async finishedAsStored(taskId: string): Promise<TaskStepResult> {
    const current = await this.deps.store.findById(taskId);
    if (current && openStatusOf(current)) return this.waitFor(this.timing.minPollDelayMs);
    return { kind: 'finished', status: current && isTaskStatus(current.status) ? current.status : undefined };
  }

  /** Whether an answered progress is written now (progressWriteDue, with this worker's interval). */
  private progressDue(stored: number, answered: number, writtenAtMs: number): boolean {
    return progressWriteDue(stored, answered, writtenAtMs, this.now(), this.timing.progressWriteIntervalMs);
  }

  private waitFor(delayMs: number): TaskStepWait {
    return { kind: 'wait', delayMs: Math.max(0, Math.round(delayMs)) };
  }

  private now(): number {
    return this.deps.clock.now();
  }
}

function openStatusOf(task: Task): OpenStatus | undefined {
  if (!isTaskStatus(task.status) || TERMINAL_TASK_STATUSES.has(task.status)) return undefined;
  return task.status as OpenStatus;
}

/** Whether a submission can be sent again without risking a second upstream task (see recoverSubmission). */
function canResubmit(adapter: TaskAdapter): boolean {
  return adapter.idempotentSubmit === true || adapter.findSubmission !== undefined;
}

/** A step may run this much before its booked poll-rate turn (BullMQ wakes delayed jobs in batches). */
const TURN_EARLY_MS = 5;

/** A pending answer's progress as the row stores it, if the upstream reported one. */
function progressOf(result: TaskPollResult): number | undefined {
  if (result.state !== 'pending' || result.progress === undefined) return undefined;
  return Math.min(100, Math.max(0, Math.round(result.progress)));
}
