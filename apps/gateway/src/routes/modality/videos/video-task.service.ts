import { Inject, Injectable } from '@nestjs/common';
import type { ResolvedKey } from '@gateway/auth';
import { PriceBook } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import type { Task } from '@gateway/db';
import { isVideoFamilyModel, taskAdapterFor, videoAdapterFor } from '@gateway/providers';
import type { ByteStrings, JsonHandle } from '@gateway/providers-core';
import { ChannelCatalog, CircuitBreaker } from '@gateway/routing';
import { ForwardedUrls } from '../../../pipeline/forwarded-urls';
import { CONFIG } from '../../../platform/infrastructure/tokens';
import type {
  PlannedTask,
  ReplayedTask,
  TaskCreated,
  TaskCreationRoute,
} from '../../../pipeline/task-creation-route';
import { newPublicTaskId } from '../../../tasks/public-task-id.util';
import { sameRequestOrConflict, TaskCreation } from '../../../tasks/task-creation.service';
import type { TaskRuntime } from '../../../tasks/task-runtime';
import { TaskRuntimeLoader } from '../../../tasks/task-runtime.loader';
import { taskStoreUnavailable } from '../../../tasks/task-store-unavailable';
import { admitVideo, type AdmittedVideo, type VideoRouteScope, type VideoRouting } from './video-admission';
import { videoDeadlineMsOf, videoHoldTtlMs } from '../../../tasks/task-deadline.util';
import { VIDEO_TASK_ID_PREFIX } from './video-object';
import type { VideoRequestDraft } from './video-request.mapper';
import { taskRequestHash } from '../../../tasks/task-request-hash';

/** The row's kind: worker-video consumes the step jobs of video tasks. */
const VIDEO_TASK_KIND = 'video';
/** What a client whose balance cannot cover the hold can lower. */
const HOLD_HINT = 'Add credit or ask for fewer seconds.';

/** One video creation as a route hands it over. */
export interface VideoSubmission {
  /** The route every hold and log row of the task names. */
  route: string;
  /** Reads and checks the client's request; its refusal is answered and logged with nothing charged. */
  read(): VideoRequestDraft | Promise<VideoRequestDraft>;
  /** The `Idempotency-Key` header. */
  idempotencyKey?: string;
  /** The public id's prefix where a family route keeps its own (`/bt` tasks are `bt_…`); default `video`. */
  taskIdPrefix?: string;
  /** The completed video a remix is made from (the caller checked it is the client's). */
  remixOf?: Task;
  /**
   * Prices an admitted call whose wire bills otherwise than by the second (theta 2.0: by tokens), its
   * hold and price snapshot; absent: per call + seconds × the price of a second.
   */
  reprice?(admitted: AdmittedVideo): AdmittedVideo;
  /** The models a family route takes and what it bills by; absent: the unified routes' (every model, per second). */
  scope?: VideoRouteScope;
}

/** A video request read, admitted and priced: what the pipeline holds before the row is written. */
export interface VideoPlan extends PlannedTask {
  runtime: TaskRuntime;
  taskId: string;
  admitted: AdmittedVideo;
  requestHash: string | undefined;
  byteStrings: ByteStrings | undefined;
  deadlineMs: number;
}

export interface CreatedVideo {
  task: Task;
  /** What the family rules changed, for the client's warning header. */
  warnings: string[];
}

/**
 * What every video task route contributes to the pipeline's task creation: read the request, check the
 * URLs it hands to the upstream (whatever the route: one policy), resolve and admit it (the pipeline
 * then holds its price as a row hold named by the task's id), write the task row pinned to its
 * channel, start it (TaskCreation.start: by default the step job that worker-video runs, nothing sent
 * upstream from here) and hand back the row. The same Idempotency-Key with the same request gives back
 * the first task with nothing more held or created; with another request, 409.
 */
@Injectable()
export class VideoTaskService {
  private readonly routing: VideoRouting;

  constructor(
    catalog: ChannelCatalog,
    breaker: CircuitBreaker,
    prices: PriceBook,
    private readonly tasks: TaskRuntimeLoader,
    private readonly rows: TaskCreation,
    private readonly forwardedUrls: ForwardedUrls,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {
    this.routing = {
      candidatesFor: (model) => catalog.candidatesFor(model),
      priceFor: (model) => prices.priceFor(model),
      circuitClosed: (channelId) => breaker.stateOf(channelId) === 'closed',
      rulesFor: (type) => (taskAdapterFor(type) ? videoAdapterFor(type) : undefined),
      isFamilyModel: isVideoFamilyModel,
    };
  }

  /**
   * The creation as the generation pipeline runs it (GenerationPipeline.createTask): read, check the
   * URLs, look up the Idempotency-Key, admit and price (the plan); then, once the pipeline has admitted
   * and held it, the row and its start.
   */
  creation(submission: VideoSubmission, key: ResolvedKey): TaskCreationRoute<VideoPlan, CreatedVideo> {
    let draft: VideoRequestDraft | undefined;
    return {
      key,
      route: submission.route,
      modelOfRefused: () => draft?.modelName,
      plan: async () => {
        const runtime = await this.tasks.runtime();
        draft = await submission.read();
        return this.plan(runtime, submission, key, draft);
      },
      create: (plan) => this.create(plan, submission, key),
    };
  }

  private async plan(
    runtime: TaskRuntime,
    submission: VideoSubmission,
    key: ResolvedKey,
    draft: VideoRequestDraft,
  ): Promise<VideoPlan | ReplayedTask<CreatedVideo>> {
    const taskId = newPublicTaskId(submission.taskIdPrefix ?? VIDEO_TASK_ID_PREFIX);
    this.forwardedUrls.checkVideoRequest(draft.fields, draft.byteStrings);
    const remixOf = submission.remixOf;
    // Only a request under an Idempotency-Key is compared with another: hashing builds the whole
    // canonical request, megabytes of `data:` images included, so the others skip it.
    let requestHash: string | undefined;
    if (submission.idempotencyKey !== undefined) {
      requestHash = taskRequestHash(
        { route: submission.route, modelName: draft.modelName, remixOf: remixOf?.id, fields: draft.fields },
        draft.byteStrings,
      );
      const earlier = await runtime.store
        .findByIdempotencyKey(key.id, submission.idempotencyKey)
        .catch(taskStoreUnavailable);
      if (earlier) {
        const task = sameRequestOrConflict(earlier, VIDEO_TASK_KIND, requestHash);
        return { replayed: { task, warnings: [] } };
      }
    }
    const fields = remixOf
      ? { ...draft.fields, remixOf: remixOf.upstreamHandle as JsonHandle }
      : draft.fields;
    const pin = remixOf?.channelId ? { channelId: remixOf.channelId } : undefined;
    let admitted = admitVideo({ ...draft, fields }, key, this.routing, pin, submission.scope);
    if (submission.reprice) admitted = submission.reprice(admitted);
    const deadlineMs = videoDeadlineMsOf(this.config.videoTaskDeadlines, admitted.call.family);
    return {
      runtime,
      taskId,
      admitted,
      requestHash,
      byteStrings: draft.byteStrings,
      deadlineMs,
      hold: {
        requestId: taskId,
        model: admitted.model,
        route: submission.route,
        amount: admitted.holdMicros,
        ttlMs: videoHoldTtlMs(deadlineMs),
      },
      holdHint: HOLD_HINT,
    };
  }

  private async create(
    plan: VideoPlan,
    submission: VideoSubmission,
    key: ResolvedKey,
  ): Promise<TaskCreated<CreatedVideo>> {
    const { runtime, taskId, requestHash } = plan;
    const created = await this.createRow(runtime, taskId, key, submission, plan);
    if (!created.created) {
      // Another request with the same key won the race: this one's hold is not needed.
      await this.rows.release(runtime, taskId, VIDEO_TASK_KIND);
      const task = sameRequestOrConflict(created.task, VIDEO_TASK_KIND, requestHash);
      return { created: { task, warnings: [] }, taskId: task.id };
    }
    await this.rows.start(runtime, created.task);
    return { created: { task: created.task, warnings: plan.admitted.warnings }, taskId: created.task.id };
  }

  /** The row, queued for worker-video; a row that cannot be written releases the hold. */
  private createRow(
    runtime: TaskRuntime,
    taskId: string,
    key: ResolvedKey,
    submission: VideoSubmission,
    plan: VideoPlan,
  ): Promise<{ task: Task; created: boolean }> {
    const { admitted } = plan;
    return this.rows.insertRow(runtime, {
      id: taskId,
      kind: VIDEO_TASK_KIND,
      keyId: key.id,
      accountId: key.accountId,
      model: admitted.model,
      channelId: admitted.channel.id,
      request: admitted.call,
      byteStrings: plan.byteStrings,
      holdRequestId: taskId,
      priceSnapshot: runtime.videoPriceSnapshot(admitted.price),
      ...(submission.idempotencyKey === undefined ? {} : { idempotencyKey: submission.idempotencyKey }),
      ...(plan.requestHash === undefined ? {} : { requestHash: plan.requestHash }),
      ...(submission.remixOf ? { remixedFromId: submission.remixOf.id } : {}),
      deadlineAt: new Date(Date.now() + plan.deadlineMs),
    });
  }
}
