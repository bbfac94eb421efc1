import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { ResolvedKey } from '@gateway/auth';
import type { BetaSubmitTaskDto } from '@gateway/contracts';
import { estimateImageHoldMicros, imageTierPrice, PriceBook, type ModelPrice } from '@gateway/billing';
import type { Task } from '@gateway/db';
import { betaImageModelOf } from '@gateway/dialects';
import { taskAdapterFor } from '@gateway/providers';
import {
  failureReasonOf,
  isJsonObject,
  RequestCancellation,
  UpstreamError,
  type TaskAdapter,
  type TaskSubmission,
} from '@gateway/providers-core';
import { ChannelCatalog, type ChannelCandidate } from '@gateway/routing';
import { betaSuccess, type BetaAnswerContext } from '../../../platform/errors/beta-envelope.renderer';
import { GatewayError } from '@gateway/errors';
import type { DeclaredBody } from '../../../platform/http/declared-body';
import { AdapterContexts } from '../../../pipeline/adapter-contexts';
import { ForwardedUrls } from '../../../pipeline/forwarded-urls';
import { FailoverExhaustedError } from '@gateway/routing';
import { assertModelAllowed, modelNotFound } from '../../../pipeline/model-admission';
import { assertPriceBills, modelNotServedHere } from '../../../pipeline/model-kind';
import { LOGGER } from '../../../platform/infrastructure/tokens';
import { ChannelAttempts } from '../../../pipeline/channel-attempts';
import type { PlannedTask, TaskCreated, TaskCreationRoute } from '../../../pipeline/task-creation-route';
import { newPublicTaskId } from '../../../tasks/public-task-id.util';
import { TaskCreation } from '../../../tasks/task-creation.service';
import type { TaskRuntime } from '../../../tasks/task-runtime';
import { TaskRuntimeLoader } from '../../../tasks/task-runtime.loader';
import { taskStoreUnavailable } from '../../../tasks/task-store-unavailable';
import { TaskStepQueues } from '../../../tasks/task-step.queues';
import type { BetaAnswer } from './beta-answer';
import { betaClientError } from './beta-result-answer';
import { toBetaSubmission, type BetaSubmission } from './beta-submission';

/** The route every /bt hold and log row names. */
export const BETA_ROUTE = '/bt';
/** Public ids of /bt tasks start with it; a query finds no task of another route. */
export const BETA_ROUTE_TASK_PREFIX = 'bt';
/** What /bt submits by a model's name: images (video models run by their own video req_keys). */
const BETA_SERVED = { route: 'POST /bt', kind: 'image' } as const;
/** The row's kind: worker-image consumes the step jobs of image tasks. */
const IMAGE_TASK_KIND = 'image';
/**
 * An image task not done by then is failed and released; the upstream keeps task records 12 hours,
 * but an image takes seconds to minutes.
 */
const BETA_TASK_DEADLINE_MS = 30 * 60_000;
/** The hold outlives the task's deadline, so the hold reaper never ends a hold the task still owns. */
const HOLD_TTL_MS = BETA_TASK_DEADLINE_MS + 60 * 60_000;
/** The official body has no count: a task makes one image, or more without `force_single`. */
const HELD_IMAGES = 1;
const SUBMISSION_TIMEOUT_MESSAGE =
  'The upstream did not confirm the submission; nothing was charged. Submit again.';

interface BetaPlan extends PlannedTask {
  runtime: TaskRuntime;
  submission: BetaSubmission;
  price: ModelPrice;
  candidates: ChannelCandidate[];
}

/**
 * Thrown inside a submission attempt whose outcome is unknown (the connection failed before an
 * answer): not an UpstreamError, so the failover stops instead of submitting the task a second time.
 */
class SubmissionOutcomeUnknown extends Error {}

/**
 * `CVSync2AsyncSubmitTask` through the gateway: validate, hold the estimated cost as a row hold, write
 * the task row, submit upstream (re-signed with the channel's credentials, failing over between
 * channels while the upstream refuses for reasons of its own), store the upstream handle, enqueue the
 * step job that worker-image polls, and answer with the gateway's task id.
 */
@Injectable()
export class BetaSubmissionService {
  constructor(
    private readonly catalog: ChannelCatalog,
    private readonly prices: PriceBook,
    private readonly contexts: AdapterContexts,
    private readonly channelAttempts: ChannelAttempts,
    private readonly tasks: TaskRuntimeLoader,
    private readonly stepQueues: TaskStepQueues,
    private readonly rows: TaskCreation,
    private readonly forwardedUrls: ForwardedUrls,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * The submission as the generation pipeline creates it (GenerationPipeline.createTask).
   * `idempotencyKey` (the `Idempotency-Key` header) maps to one task per key: a repeated submission
   * answers the first one's task id, and holds and submits nothing more.
   */
  creation(
    key: ResolvedKey,
    body: DeclaredBody<BetaSubmitTaskDto>,
    context: BetaAnswerContext,
    idempotencyKey?: string,
  ): TaskCreationRoute<BetaPlan, BetaAnswer> {
    return {
      key,
      route: BETA_ROUTE,
      modelOfRefused: () => modelOfBody(body.raw),
      plan: async () => ({ runtime: await this.tasks.runtime(), ...this.plan(key, body, context) }),
      create: (plan) => this.create(plan, key, context, idempotencyKey),
    };
  }

  /** From here every path ends the hold: the task row's settlement, or a release. */
  private async create(
    plan: BetaPlan,
    key: ResolvedKey,
    context: BetaAnswerContext,
    idempotencyKey: string | undefined,
  ): Promise<TaskCreated<BetaAnswer>> {
    const { runtime, submission, price, candidates } = plan;
    const created = await this.createTask(runtime, key, submission, price, context.requestId, idempotencyKey);
    const answer = { httpStatus: 200, body: betaSuccess({ task_id: created.task.id }, context) };
    if (!created.created) {
      await runtime.settlement.releaseHold(context.requestId);
      return { created: answer, taskId: created.task.id };
    }
    const { task } = created;
    const handle = await this.submitUpstream(runtime, task, candidates, submission);
    if (!(await runtime.store.storeHandle(task.id, handle))) {
      this.logger.warn({ taskId: task.id }, 'task left processing while its submission was in flight');
    }
    await this.enqueueStep(task.id);
    return { created: answer, taskId: task.id };
  }

  /** Everything decided before money moves: the client's refusal, or what to submit and hold. */
  private plan(
    key: ResolvedKey,
    body: DeclaredBody<BetaSubmitTaskDto>,
    context: BetaAnswerContext,
  ): Omit<BetaPlan, 'runtime'> {
    const submission = toBetaSubmission(body, (reqKey) => this.servedElsewhere(reqKey));
    // The submission goes upstream as sent: its `image_urls` (and any other URL field) the upstream fetches.
    this.forwardedUrls.checkFieldsOf(submission.taskRequest.submission, '');
    assertModelAllowed(key, submission.model);
    const candidates = this.catalog
      .candidatesFor(submission.model)
      .filter((candidate) => candidate.type === 'beta' && taskAdapterFor(candidate.type) !== undefined);
    const price = this.prices.priceFor(submission.model);
    if (candidates.length === 0 || !price) throw modelNotFound(submission.model);
    // Billed per image: a row pricing only tokens or seconds would make the task free.
    assertPriceBills(submission.model, price, ['image']);
    return {
      submission,
      price,
      candidates,
      hold: {
        requestId: context.requestId,
        model: submission.model,
        route: BETA_ROUTE,
        amount: holdMicrosOf(submission, price),
        ttlMs: HOLD_TTL_MS,
      },
      holdHint: 'Add credit.',
    };
  }

  /**
   * A `req_key` no beta image key names that is a model of the gateway (a text, music or video model,
   * or an image model of another family): the 404 names the route that serves it, in this route's
   * dialect (the `req_key` field). Undefined for a key no price knows, which the key table answers.
   */
  private servedElsewhere(reqKey: string): GatewayError | undefined {
    const price = this.prices.priceFor(reqKey);
    if (!price) return undefined;
    const refusal = modelNotServedHere(BETA_SERVED, reqKey, this.catalog.candidatesFor(reqKey), price);
    return new GatewayError(refusal.code, refusal.message, { param: 'req_key' });
  }

  /**
   * The row first, claimed at once (`processing`): a submission is only ever made for a stored task.
   * A row that cannot be written releases the hold.
   */
  private async createTask(
    runtime: TaskRuntime,
    key: ResolvedKey,
    submission: BetaSubmission,
    price: ModelPrice,
    holdRequestId: string,
    idempotencyKey: string | undefined,
  ): Promise<{ task: Task; created: boolean }> {
    try {
      const created = await runtime.store.create({
        id: newPublicTaskId(BETA_ROUTE_TASK_PREFIX),
        kind: IMAGE_TASK_KIND,
        keyId: key.id,
        accountId: key.accountId,
        model: submission.model,
        request: submission.taskRequest,
        holdRequestId,
        priceSnapshot: imagePriceSnapshotOf(runtime, submission, price),
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
        deadlineAt: new Date(Date.now() + BETA_TASK_DEADLINE_MS),
      });
      if (created.created) await runtime.store.transition(created.task.id, 'queued', 'processing');
      return created;
    } catch (error) {
      await this.rows.release(runtime, holdRequestId, IMAGE_TASK_KIND);
      return taskStoreUnavailable(error);
    }
  }

  /**
   * The upstream submission, on the first channel that accepts it. A refusal fails the task and
   * settles its hold with nothing captured on the refusing channel (its log row `upstream_error`), and
   * the client gets the upstream's answer. An unknown outcome leaves the task to worker-image, which
   * fails and releases it once the submission timeout has passed.
   */
  private async submitUpstream(
    runtime: TaskRuntime,
    task: Task,
    candidates: readonly ChannelCandidate[],
    submission: BetaSubmission,
  ): Promise<TaskSubmission['handle']> {
    const cancellation = new RequestCancellation();
    try {
      const { value } = await this.channelAttempts.run(candidates, async (candidate) => {
        await runtime.store.updateWhile(task.id, 'processing', { channelId: candidate.id });
        return this.submitTo(candidate, task, submission, cancellation);
      });
      return value.handle;
    } catch (error) {
      if (error instanceof SubmissionOutcomeUnknown) {
        await this.enqueueStep(task.id);
        throw new GatewayError('upstream_timeout', SUBMISSION_TIMEOUT_MESSAGE, { cause: error.cause });
      }
      const last = error instanceof FailoverExhaustedError ? error.attempts.at(-1) : undefined;
      const failure = last?.failure;
      const reason = failure ? failureReasonOf(failure) : 'submission failed';
      if (await runtime.store.transition(task.id, 'processing', 'failed', { failureReason: reason })) {
        // As a video's refused submission: on the channel that refused it, its log row `upstream_error`.
        if (last?.failure) {
          const failed: Task = {
            ...task,
            status: 'failed',
            failureReason: reason,
            channelId: last.channelId,
          };
          await runtime.settlement.settle(failed, { state: 'failed' });
        } else {
          await runtime.settlement.releaseHold(task.holdRequestId as string);
        }
      }
      throw failure ? betaClientError(failure) : error;
    }
  }

  private async submitTo(
    candidate: ChannelCandidate,
    task: Task,
    submission: BetaSubmission,
    cancellation: RequestCancellation,
  ): Promise<TaskSubmission> {
    const adapter = taskAdapterFor(candidate.type) as TaskAdapter;
    try {
      return await adapter.submit(
        { upstreamModel: candidate.upstreamModel, request: submission.taskRequest },
        { ...this.contexts.for(candidate, cancellation), submissionKey: task.id },
      );
    } catch (error) {
      // An upstream that answered created nothing; one that never answered may have.
      if (error instanceof UpstreamError && error.failure.httpStatus === undefined) {
        throw new SubmissionOutcomeUnknown(error.failure.message, { cause: error });
      }
      throw error;
    }
  }

  /** The worker polls a task nobody asks about; if Redis is down, the overdue sweep still finds it. */
  private async enqueueStep(taskId: string): Promise<void> {
    await this.stepQueues.enqueueStep(IMAGE_TASK_KIND, taskId).catch((error: unknown) => {
      this.logger.warn({ err: error, taskId }, 'image task step job could not be enqueued');
    });
  }
}

function holdMicrosOf(submission: BetaSubmission, price: ModelPrice): bigint {
  const tier = { size: submission.tier };
  const each = imageTierPrice(price, tier);
  if (!each.ok) {
    throw GatewayError.invalidRequest(
      `${submission.model} is not priced at ${submission.tier} (priced: ${each.offered.join(', ') || 'none'}).`,
      'resolution',
    );
  }
  return estimateImageHoldMicros(HELD_IMAGES, tier, price);
}

function imagePriceSnapshotOf(runtime: TaskRuntime, submission: BetaSubmission, price: ModelPrice) {
  const each = imageTierPrice(price, { size: submission.tier });
  return runtime.imagePriceSnapshot({
    tier: { size: submission.tier },
    perCallMicros: price.perCall,
    perImageMicros: each.ok ? each.micros : 0n,
  });
}

/** The model a refused body named, for its log row, when its req_key is one the gateway serves. */
function modelOfBody(body: unknown): string | undefined {
  const reqKey = isJsonObject(body) ? body['req_key'] : undefined;
  return typeof reqKey === 'string' ? betaImageModelOf(reqKey) : undefined;
}
