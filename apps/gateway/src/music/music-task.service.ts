import { Inject, Injectable } from '@nestjs/common';
import type { ResolvedKey } from '@gateway/auth';
import { PriceBook } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import type { Task } from '@gateway/db';
import { lambdaActionOf, type LambdaTaskRequest } from '@gateway/dialects';
import { taskAdapterFor } from '@gateway/providers';
import type { JsonHandle } from '@gateway/providers-core';
import { ChannelCatalog, CircuitBreaker } from '@gateway/routing';
import { GatewayError } from '../errors/gateway-error';
import { ForwardedUrls } from '../generation/forwarded-urls';
import { refusalLogOf } from '../generation/request-log-fields';
import { SettlementRecorder } from '../generation/settlement-recorder';
import { CONFIG } from '../infrastructure/tokens';
import { newPublicTaskId } from '../tasks/public-task-id.util';
import { sameRequestOrConflict, TaskCreation } from '../tasks/task-creation.service';
import type { TaskRuntime } from '../tasks/task-runtime';
import { TaskRuntimeLoader } from '../tasks/task-runtime.loader';
import { taskStoreUnavailable } from '../tasks/task-store-unavailable';
import { videoDeadlineMsOf, videoHoldTtlMs } from '../videos/video-deadline.util';
import { videoRequestHash } from '../videos/video-request-hash';
import { admitMusic, type AdmittedMusic, type MusicRouting } from './music-admission';
import { OwnedMusicTasks } from './owned-music-tasks.service';
import { toMusicSubmission, type MusicSubmission } from './music-submission';
import {
  MUSIC_DEADLINE_FAMILY,
  MUSIC_SUBMIT_ROUTE,
  MUSIC_TASK_ID_PREFIX,
  MUSIC_TASK_KIND,
} from './music-task.constants';

/** What a client whose balance cannot cover the hold can do. */
const HOLD_HINT = 'Add credit.';

/** Who asks and for which request (its log row and the answer's timing). */
export interface MusicRequestContext {
  requestId: string;
  startedAt: number;
}

/**
 * Creates a music task: read the §9.3 body, admit it, hold its price as a row hold named by the
 * task's id, write the task row pinned to its channel, start it (TaskCreation.start: by default the
 * step job with which worker-video submits it, then polls it in batches) and hand back the row. The same Idempotency-Key with the same request gives back the first task with nothing more
 * held or created; with another request, 409. A refusal is logged with nothing charged.
 */
@Injectable()
export class MusicTaskService {
  private readonly routing: MusicRouting;

  constructor(
    catalog: ChannelCatalog,
    breaker: CircuitBreaker,
    prices: PriceBook,
    private readonly recorder: SettlementRecorder,
    private readonly tasks: TaskRuntimeLoader,
    private readonly owned: OwnedMusicTasks,
    private readonly creation: TaskCreation,
    private readonly forwardedUrls: ForwardedUrls,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {
    this.routing = {
      candidatesFor: (model) => catalog.candidatesFor(model),
      priceFor: (model) => prices.priceFor(model),
      circuitClosed: (channelId) => breaker.stateOf(channelId) === 'closed',
      runsTasks: (type) => taskAdapterFor(type) !== undefined,
    };
  }

  /** `segment` is the path's `{action}`, `music` or `lyrics` in any case; anything else is a 400 naming it. */
  async create(
    segment: string,
    body: unknown,
    key: ResolvedKey,
    context: MusicRequestContext,
    idempotencyKey: string | undefined,
  ): Promise<Task> {
    const runtime = await this.tasks.runtime();
    const taskId = newPublicTaskId(MUSIC_TASK_ID_PREFIX);
    let submission: MusicSubmission | undefined;
    let admitted: AdmittedMusic;
    let request: LambdaTaskRequest;
    let requestHash: string;
    try {
      const action = lambdaActionOf(segment);
      if (!action) throw GatewayError.invalidRequest('action must be music or lyrics.', 'action');
      submission = toMusicSubmission(action, body);
      // The wire takes the body as sent: any URL field in it is one the upstream fetches.
      this.forwardedUrls.checkFieldsOf(submission.fields, '');
      requestHash = videoRequestHash({
        route: `/lambda/submit/${submission.action}`,
        modelName: submission.model,
        remixOf: submission.continueTaskId,
        fields: submission.fields,
      });
      if (idempotencyKey !== undefined) {
        const earlier = await runtime.store
          .findByIdempotencyKey(key.id, idempotencyKey)
          .catch(taskStoreUnavailable);
        if (earlier) return sameRequestOrConflict(earlier, MUSIC_TASK_KIND, requestHash);
      }
      const source = await this.continuedTask(key, submission);
      admitted = admitMusic(
        submission,
        key,
        this.routing,
        source?.channelId ? { channelId: source.channelId } : undefined,
      );
      request = {
        kind: 'lambda',
        action: submission.action,
        fields: submission.fields,
        continueOf: (source?.upstreamHandle as JsonHandle | undefined) ?? null,
      };
      await this.hold(taskId, key, submission.model, admitted);
    } catch (error) {
      this.recorder.logWithoutHold(
        refusalLogOf(context.requestId, key, submission?.model, MUSIC_SUBMIT_ROUTE, context.startedAt, error),
      );
      throw error;
    }
    const created = await this.createRow(runtime, taskId, key, submission, admitted, request, {
      requestHash,
      idempotencyKey,
    });
    if (!created.created) {
      // Another request with the same key won the race: this one's hold is not needed.
      await this.creation.release(runtime, taskId, MUSIC_TASK_KIND);
      return sameRequestOrConflict(created.task, MUSIC_TASK_KIND, requestHash);
    }
    await this.creation.start(runtime, created.task);
    return created.task;
  }

  /** The caller's completed music task whose clip a continuation continues; a 400 naming task_id otherwise. */
  private async continuedTask(key: ResolvedKey, submission: MusicSubmission): Promise<Task | undefined> {
    if (submission.continueTaskId === undefined) return undefined;
    const source = await this.owned.findOrUndefined(key, submission.continueTaskId);
    if (!source || source.status !== 'completed' || source.upstreamHandle === null) {
      throw GatewayError.invalidRequest(
        `task_id must be one of your completed music tasks; '${submission.continueTaskId}' is not.`,
        'task_id',
      );
    }
    return source;
  }

  private deadlineMs(): number {
    return videoDeadlineMsOf(this.config.videoTaskDeadlines, MUSIC_DEADLINE_FAMILY);
  }

  private hold(taskId: string, key: ResolvedKey, model: string, admitted: AdmittedMusic): Promise<void> {
    const hold = {
      model,
      route: MUSIC_SUBMIT_ROUTE,
      amount: admitted.holdMicros,
      ttlMs: videoHoldTtlMs(this.deadlineMs()),
    };
    return this.creation.hold(taskId, key, hold, HOLD_HINT);
  }

  /**
   * The row, queued for worker-video; a row that cannot be written releases the hold. No price
   * snapshot: a music task captures its hold, the perCall it was admitted at.
   */
  private createRow(
    runtime: TaskRuntime,
    taskId: string,
    key: ResolvedKey,
    submission: MusicSubmission,
    admitted: AdmittedMusic,
    request: LambdaTaskRequest,
    identity: { requestHash: string; idempotencyKey: string | undefined },
  ): Promise<{ task: Task; created: boolean }> {
    return this.creation.insertRow(runtime, {
      id: taskId,
      kind: MUSIC_TASK_KIND,
      keyId: key.id,
      accountId: key.accountId,
      model: submission.model,
      channelId: admitted.channel.id,
      request,
      holdRequestId: taskId,
      ...(identity.idempotencyKey === undefined ? {} : { idempotencyKey: identity.idempotencyKey }),
      requestHash: identity.requestHash,
      ...(submission.continueTaskId === undefined ? {} : { remixedFromId: submission.continueTaskId }),
      deadlineAt: new Date(Date.now() + this.deadlineMs()),
    });
  }
}
