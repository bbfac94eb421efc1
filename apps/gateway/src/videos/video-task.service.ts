import { Inject, Injectable } from '@nestjs/common';
import type { ResolvedKey } from '@gateway/auth';
import { PriceBook } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import type { Task } from '@gateway/db';
import { isVideoFamilyModel, taskAdapterFor, videoAdapterFor } from '@gateway/providers';
import type { ByteStrings, JsonHandle } from '@gateway/providers-core';
import { ChannelCatalog, CircuitBreaker } from '@gateway/routing';
import { ForwardedUrls } from '../generation/forwarded-urls';
import { refusalLogOf } from '../generation/request-log-fields';
import { SettlementRecorder } from '../generation/settlement-recorder';
import { CONFIG } from '../infrastructure/tokens';
import { newPublicTaskId } from '../tasks/public-task-id.util';
import { sameRequestOrConflict, TaskCreation } from '../tasks/task-creation.service';
import type { TaskRuntime } from '../tasks/task-runtime';
import { TaskRuntimeLoader } from '../tasks/task-runtime.loader';
import { taskStoreUnavailable } from '../tasks/task-store-unavailable';
import { admitVideo, type AdmittedVideo, type VideoRouteScope, type VideoRouting } from './video-admission';
import { videoDeadlineMsOf, videoHoldTtlMs } from './video-deadline.util';
import { VIDEO_TASK_ID_PREFIX } from './video-object';
import type { VideoRequestDraft } from './video-request.mapper';
import { videoRequestHash } from './video-request-hash';

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

export interface CreatedVideo {
  task: Task;
  /** What the family rules changed, for the client's warning header. */
  warnings: string[];
}

/**
 * Creates a video task: read the request, check the URLs it hands to the upstream (whatever the route:
 * one policy), resolve and admit it, hold its price as a row hold named by
 * the task's id, write the task row pinned to its channel, start it (TaskCreation.start: by default
 * the step job that worker-video runs, nothing sent upstream from here) and hand back the row. The same
 * Idempotency-Key with the same request gives back the first task with nothing more held or created;
 * with another request, 409.
 */
@Injectable()
export class VideoTaskService {
  private readonly routing: VideoRouting;

  constructor(
    catalog: ChannelCatalog,
    breaker: CircuitBreaker,
    prices: PriceBook,
    private readonly recorder: SettlementRecorder,
    private readonly tasks: TaskRuntimeLoader,
    private readonly creation: TaskCreation,
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

  async create(
    submission: VideoSubmission,
    key: ResolvedKey,
    context: { requestId: string; startedAt: number },
  ): Promise<CreatedVideo> {
    const runtime = await this.tasks.runtime();
    const taskId = newPublicTaskId(submission.taskIdPrefix ?? VIDEO_TASK_ID_PREFIX);
    let draft: VideoRequestDraft | undefined;
    let admitted: AdmittedVideo;
    // Only a request under an Idempotency-Key is compared with another: hashing builds the whole
    // canonical request, megabytes of `data:` images included, so the others skip it.
    let requestHash: string | undefined;
    try {
      draft = await submission.read();
      this.forwardedUrls.checkVideoRequest(draft.fields, draft.byteStrings);
      const remixOf = submission.remixOf;
      if (submission.idempotencyKey !== undefined) {
        requestHash = videoRequestHash(
          {
            route: submission.route,
            modelName: draft.modelName,
            remixOf: remixOf?.id,
            fields: draft.fields,
          },
          draft.byteStrings,
        );
        const earlier = await runtime.store
          .findByIdempotencyKey(key.id, submission.idempotencyKey)
          .catch(taskStoreUnavailable);
        if (earlier)
          return { task: sameRequestOrConflict(earlier, VIDEO_TASK_KIND, requestHash), warnings: [] };
      }
      const fields = remixOf
        ? { ...draft.fields, remixOf: remixOf.upstreamHandle as JsonHandle }
        : draft.fields;
      const pin = remixOf?.channelId ? { channelId: remixOf.channelId } : undefined;
      admitted = admitVideo({ ...draft, fields }, key, this.routing, pin, submission.scope);
      if (submission.reprice) admitted = submission.reprice(admitted);
      await this.hold(taskId, key, submission.route, admitted);
    } catch (error) {
      this.recorder.logWithoutHold(
        refusalLogOf(context.requestId, key, draft?.modelName, submission.route, context.startedAt, error),
      );
      throw error;
    }
    const created = await this.createRow(runtime, taskId, key, submission, admitted, {
      requestHash,
      byteStrings: draft.byteStrings,
    });
    if (!created.created) {
      // Another request with the same key won the race: this one's hold is not needed.
      await this.creation.release(runtime, taskId, VIDEO_TASK_KIND);
      return { task: sameRequestOrConflict(created.task, VIDEO_TASK_KIND, requestHash), warnings: [] };
    }
    await this.creation.start(runtime, created.task);
    return { task: created.task, warnings: admitted.warnings };
  }

  private hold(taskId: string, key: ResolvedKey, route: string, admitted: AdmittedVideo): Promise<void> {
    const deadlineMs = videoDeadlineMsOf(this.config.videoTaskDeadlines, admitted.call.family);
    const hold = {
      model: admitted.model,
      route,
      amount: admitted.holdMicros,
      ttlMs: videoHoldTtlMs(deadlineMs),
    };
    return this.creation.hold(taskId, key, hold, HOLD_HINT);
  }

  /** The row, queued for worker-video; a row that cannot be written releases the hold. */
  private createRow(
    runtime: TaskRuntime,
    taskId: string,
    key: ResolvedKey,
    submission: VideoSubmission,
    admitted: AdmittedVideo,
    read: { requestHash: string | undefined; byteStrings: ByteStrings | undefined },
  ): Promise<{ task: Task; created: boolean }> {
    const deadlineMs = videoDeadlineMsOf(this.config.videoTaskDeadlines, admitted.call.family);
    return this.creation.insertRow(runtime, {
      id: taskId,
      kind: VIDEO_TASK_KIND,
      keyId: key.id,
      accountId: key.accountId,
      model: admitted.model,
      channelId: admitted.channel.id,
      request: admitted.call,
      byteStrings: read.byteStrings,
      holdRequestId: taskId,
      priceSnapshot: runtime.videoPriceSnapshot(admitted.price),
      ...(submission.idempotencyKey === undefined ? {} : { idempotencyKey: submission.idempotencyKey }),
      ...(read.requestHash === undefined ? {} : { requestHash: read.requestHash }),
      ...(submission.remixOf ? { remixedFromId: submission.remixOf.id } : {}),
      deadlineAt: new Date(Date.now() + deadlineMs),
    });
  }
}
