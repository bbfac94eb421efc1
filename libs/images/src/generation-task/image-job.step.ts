import type { ModelPrice } from '@gateway/billing';
import type { Task } from '@gateway/db';
import { GatewayError } from '@gateway/errors';
import {
  RequestCancellation,
  type AdapterContext,
  type CancellationSignal,
  type GeneratedImage,
  type SafeFetcher,
} from '@gateway/providers-core';
import {
  FailoverExhaustedError,
  withChannelFailover,
  type ChannelCandidate,
  type CircuitBreaker,
} from '@gateway/routing';
import type { ObjectStore } from '@gateway/storage';
import {
  releaseReasonOf,
  type HoldReleaseReason,
  type SettledOutcome,
  type TaskPatch,
  type TaskStatus,
  type TaskStepResult,
} from '@gateway/tasks';
import type { Job } from 'bullmq';
import { attemptImages } from '../image-calls';
import { bytesOfGeneratedImage } from '../image-download';
import { planImages, type PlannedImages } from '../image-planning';
import type { TaskWaitLimits } from '../image-task.waiter';
import { fromStoredImageJob, type ImageJobRequest } from './image-job-request';
import { toStoredJobResult, type StoredJobImage } from './image-job-result';

/** The rows the step reads and writes, every status change a compare-and-swap (TaskStore). */
export interface ImageJobRows {
  findById(taskId: string): Promise<Task | null>;
  transition(taskId: string, from: TaskStatus, to: TaskStatus, patch?: TaskPatch): Promise<boolean>;
  reclaimSubmission(taskId: string, claimedAt: Date): Promise<boolean>;
}

export interface ImageJobStepDependencies {
  rows: ImageJobRows;
  /** The task settlement (TaskSettlementService): each hold's settlement applies once. */
  settlement: {
    settle(task: Task, outcome: SettledOutcome): Promise<void>;
    releaseHold(holdRequestId: string, reason?: HoldReleaseReason): Promise<void>;
  };
  /** The channels serving a model, read afresh for each run (the channel catalog, refreshed). */
  candidatesFor(model: string): Promise<ChannelCandidate[]>;
  /** The model's price as the price book has it now, for the family rules' tier check. */
  priceFor(model: string): Promise<ModelPrice | undefined>;
  breaker: CircuitBreaker;
  maxAttempts: number;
  contextFor(candidate: ChannelCandidate, signal: CancellationSignal): AdapterContext;
  fetcher: SafeFetcher;
  objects: ObjectStore;
  limits: TaskWaitLimits;
  logger: {
    info(fields: Record<string, unknown>, message: string): void;
    warn(fields: Record<string, unknown>, message: string): void;
  };
}

/** A claim lost to another run: look again shortly. */
const CLAIM_LOST_DELAY_MS = 1_000;
const UNREADABLE_REQUEST = 'the image job request cannot be read';
const NO_IMAGES_RETRIEVED =
  'The upstream made the images but they could not be retrieved; nothing was charged.';
export const IMAGE_JOB_DEADLINE_EXCEEDED = 'deadline exceeded';

/**
 * One run of an asynchronous image job (`Prefer: respond-async`) in worker-image: the upstream call of
 * the synchronous route (its planning, its channel failover, its attempt), made here instead of in the
 * client's request, the images kept in the object store, then the terminal compare-and-swap whose
 * winner settles. Safe to re-run at any point: its step job is the lock (BullMQ runs a job once at a
 * time and re-runs it only when its holder died), so a run that finds the task `processing` takes it
 * over (reclaimed by compare-and-swap on the claim) and makes the call again. A call interrupted
 * upstream may have made images that nobody receives; the client is charged once, for the images of
 * the run that won.
 */
export class ImageJobStep {
  constructor(private readonly deps: ImageJobStepDependencies) {}

  /** A step job's run; a claim held by another run moves the job to the delayed set (runStepJob). */
  async process(
    job: Pick<Job<{ taskId: string }>, 'data' | 'moveToDelayed'>,
    token?: string,
  ): Promise<TaskStepResult> {
    const result = await this.runStep(job.data.taskId);
    if (result.kind === 'finished') return result;
    await job.moveToDelayed(Date.now() + result.delayMs, token);
    return result;
  }

  async runStep(taskId: string): Promise<TaskStepResult> {
    const task = await this.deps.rows.findById(taskId);
    if (!task) return { kind: 'finished', status: undefined };
    if (task.status !== 'queued' && task.status !== 'processing') return this.settleFinished(task);
    if (Date.now() >= task.deadlineAt.getTime()) {
      return this.fail(task, task.status, IMAGE_JOB_DEADLINE_EXCEEDED);
    }
    const claimed =
      task.status === 'queued'
        ? await this.deps.rows.transition(task.id, 'queued', 'processing')
        : await this.deps.rows.reclaimSubmission(task.id, task.updatedAt);
    if (!claimed) return { kind: 'wait', delayMs: CLAIM_LOST_DELAY_MS };
    const job = fromStoredImageJob(task.request);
    if (!job) return this.fail(task, 'processing', UNREADABLE_REQUEST);
    return this.run(task, job);
  }

  private async run(task: Task, job: ImageJobRequest): Promise<TaskStepResult> {
    const signal = new RequestCancellation();
    let made: { images: StoredJobImage[]; warnings: string[]; candidate: ChannelCandidate; n: number };
    try {
      made = await this.make(task, job, signal);
    } catch (error) {
      // A refusal or an upstream failure ends the job, as the synchronous route answers it; anything
      // else (a database or store outage) fails the attempt, and BullMQ runs the job again.
      if (!(error instanceof GatewayError)) throw error;
      return this.fail(task, 'processing', `${error.code}: ${error.message}`, answeringChannelOf(error));
    }
    const patch: TaskPatch = {
      channelId: made.candidate.id,
      progress: 100,
      upstreamHandle: toStoredJobResult({
        created: Math.floor(task.createdAt.getTime() / 1000),
        images: made.images,
        warnings: made.warnings,
      }) as TaskPatch['upstreamHandle'],
      // The images the client gets, never more than it asked for: what the synchronous route charges.
      imageCount: Math.min(made.images.length, made.n),
      completedAt: new Date(),
    };
    if (!(await this.deps.rows.transition(task.id, 'processing', 'completed', patch))) {
      return this.asStored(task.id);
    }
    this.deps.logger.info({ taskId: task.id, images: made.images.length }, 'image job completed');
    await this.deps.settlement.settle({ ...task, ...patch, status: 'completed' } as Task, {
      state: 'completed',
      outputs: [],
      warnings: made.warnings,
    });
    return { kind: 'finished', status: 'completed' };
  }

  /** The synchronous route's planning and failover; the images stored, or the client's error. */
  private async make(task: Task, job: ImageJobRequest, signal: RequestCancellation) {
    const price = await this.deps.priceFor(task.model);
    if (!price) throw new GatewayError('model_not_found', `The model '${task.model}' is no longer priced.`);
    const plans = new Map<string, PlannedImages | undefined>();
    const planFor = (candidate: ChannelCandidate) => {
      if (!plans.has(candidate.type)) {
        const plan = planImages(job.request, job.operation, candidate.type, price);
        plans.set(candidate.type, plan instanceof GatewayError ? undefined : plan);
      }
      return plans.get(candidate.type);
    };
    const candidates = await this.deps.candidatesFor(task.model);
    const { value, candidate } = await withChannelFailover(
      candidates,
      {
        breaker: this.deps.breaker,
        maxAttempts: this.deps.maxAttempts,
        canServe: (channel) => planFor(channel) !== undefined,
      },
      async (channel) => {
        const planned = planFor(channel) as PlannedImages;
        const context = this.deps.contextFor(channel, signal);
        const result = await attemptImages(planned, channel, context, task.id, this.deps.limits);
        return { result, planned };
      },
    );
    const stored = await Promise.all(value.result.images.map((image) => this.store(task.id, image, signal)));
    const images = stored.filter((image): image is StoredJobImage => image !== undefined);
    if (images.length === 0) throw new ImagesNotRetrieved(candidate.id);
    const warnings = [...value.planned.warnings, ...value.result.warnings];
    const undelivered = value.result.images.length - images.length + value.result.itemErrors.length;
    if (undelivered > 0)
      warnings.push(`${undelivered} image(s) could not be made or retrieved and are not charged`);
    return { images, warnings, candidate, n: value.planned.call.n };
  }

  /** An image's bytes in the object store; undefined (left out, not charged) when they cannot be had. */
  private async store(
    taskId: string,
    image: GeneratedImage,
    signal: CancellationSignal,
  ): Promise<StoredJobImage | undefined> {
    let bytes: { bytes: Buffer; contentType: string };
    try {
      bytes = await bytesOfGeneratedImage(image, this.deps.fetcher, signal);
    } catch (error) {
      this.deps.logger.warn({ err: error, taskId }, 'image of a job not retrieved');
      return undefined;
    }
    // A store that cannot be written fails the run (thrown): BullMQ runs the job again.
    const { id } = await this.deps.objects.put(bytes.bytes, { contentType: bytes.contentType });
    return {
      objectId: id,
      ...(image.revisedPrompt === undefined ? {} : { revisedPrompt: image.revisedPrompt }),
    };
  }

  /**
   * Terminal failure; the winner settles the hold with nothing captured. One that a channel's answer
   * ended (an upstream error, or images that could not be retrieved) names the channel on the task and
   * ends its log row `upstream_error`, as a video's and the synchronous route's do (a channel's recent
   * errors count it); any other (a refusal, the deadline) ends it `task_failed`.
   */
  private async fail(
    task: Task,
    from: TaskStatus,
    reason: string,
    channelId?: string,
  ): Promise<TaskStepResult> {
    const patch: TaskPatch = { failureReason: reason, ...(channelId !== undefined && { channelId }) };
    if (!(await this.deps.rows.transition(task.id, from, 'failed', patch))) {
      return this.asStored(task.id);
    }
    this.deps.logger.info({ taskId: task.id, reason }, 'image job failed');
    return this.settleFinished({ ...task, ...patch, status: 'failed' } as Task);
  }

  /**
   * The settlement of a job that ended, by its winner or, after a run died between the terminal
   * transition and the settlement, by a re-run: a no-op when the first settlement landed (each hold
   * settles once), the missing one otherwise, from what the transition stored. A failed job names a
   * channel only when a channel's answer ended it (`fail`).
   */
  private async settleFinished(task: Task): Promise<TaskStepResult> {
    if (task.holdRequestId !== null) {
      if (task.status === 'completed') {
        await this.deps.settlement.settle(task, { state: 'completed', outputs: [], warnings: [] });
      } else if (task.status === 'failed' && task.channelId !== null) {
        await this.deps.settlement.settle(task, { state: 'failed' });
      } else {
        await this.deps.settlement.releaseHold(task.holdRequestId, releaseReasonOf(task.status));
      }
    }
    return { kind: 'finished', status: task.status as TaskStatus };
  }

  private async asStored(taskId: string): Promise<TaskStepResult> {
    const current = await this.deps.rows.findById(taskId);
    if (current && (current.status === 'queued' || current.status === 'processing')) {
      return { kind: 'wait', delayMs: CLAIM_LOST_DELAY_MS };
    }
    return { kind: 'finished', status: current?.status as TaskStatus | undefined };
  }
}

/** A channel made the images, and not one of them could be retrieved: nothing is charged. */
class ImagesNotRetrieved extends GatewayError {
  constructor(readonly channelId: string) {
    super('upstream_unavailable', NO_IMAGES_RETRIEVED);
  }
}

/**
 * The channel whose answer ended a job: the last attempt of a failover that ended on an upstream's
 * answer, or the channel whose images could not be retrieved; undefined for any other error.
 */
function answeringChannelOf(error: GatewayError): string | undefined {
  if (error instanceof ImagesNotRetrieved) return error.channelId;
  if (!(error instanceof FailoverExhaustedError)) return undefined;
  const last = error.attempts.at(-1);
  return last?.failure ? last.channelId : undefined;
}
