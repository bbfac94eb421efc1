import { Inject, Injectable } from '@nestjs/common';
import type { ResolvedKey } from '@gateway/auth';
import { PriceBook } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import type { Task } from '@gateway/db';
import { lambdaActionOf, type LambdaTaskRequest } from '@gateway/dialects';
import { taskAdapterFor } from '@gateway/providers';
import type { JsonHandle } from '@gateway/providers-core';
import { ChannelCatalog, CircuitBreaker } from '@gateway/routing';
import { GatewayError } from '@gateway/errors';
import type { DeclaredBody } from '../../../platform/http/declared-body';
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
import { videoDeadlineMsOf, videoHoldTtlMs } from '../../../tasks/task-deadline.util';
import { taskRequestHash } from '../../../tasks/task-request-hash';
import { admitMusic, type AdmittedMusic, type MusicRouting } from './music-admission';
import { OwnedMusicTasks } from './owned-music-tasks.service';
import type { LambdaSubmitRequestDto } from './lambda-request.dto';
import { toMusicSubmission, type MusicSubmission } from './music-submission';
import {
  MUSIC_DEADLINE_FAMILY,
  MUSIC_SUBMIT_ROUTE,
  MUSIC_TASK_ID_PREFIX,
  MUSIC_TASK_KIND,
} from './music-task.constants';

/** What a client whose balance cannot cover the hold can do. */
const HOLD_HINT = 'Add credit.';

/** A music request read, admitted and priced: what the pipeline holds before the row is written. */
interface MusicPlan extends PlannedTask {
  runtime: TaskRuntime;
  taskId: string;
  submission: MusicSubmission;
  admitted: AdmittedMusic;
  request: LambdaTaskRequest;
  requestHash: string;
}

/**
 * What the music route contributes to the pipeline's task creation: read the §9.3 body, admit it (the
 * pipeline holds its price as a row hold named by the task's id), write the task row pinned to its channel, start it (TaskCreation.start: by default the
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
    private readonly tasks: TaskRuntimeLoader,
    private readonly owned: OwnedMusicTasks,
    private readonly rows: TaskCreation,
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

  /**
   * The creation as the generation pipeline runs it (GenerationPipeline.createTask). `segment` is the
   * path's `{action}`, `music` or `lyrics` in any case; anything else is a 400 naming it.
   */
  creation(
    segment: string,
    body: DeclaredBody<LambdaSubmitRequestDto>,
    key: ResolvedKey,
    idempotencyKey: string | undefined,
  ): TaskCreationRoute<MusicPlan, Task> {
    let submission: MusicSubmission | undefined;
    return {
      key,
      route: MUSIC_SUBMIT_ROUTE,
      modelOfRefused: () => submission?.model,
      plan: async () => {
        const runtime = await this.tasks.runtime();
        const action = lambdaActionOf(segment);
        if (!action) throw GatewayError.invalidRequest('action must be music or lyrics.', 'action');
        submission = toMusicSubmission(action, body);
        return this.plan(runtime, submission, key, idempotencyKey);
      },
      create: (plan) => this.create(plan, key, idempotencyKey),
    };
  }

  private async plan(
    runtime: TaskRuntime,
    submission: MusicSubmission,
    key: ResolvedKey,
    idempotencyKey: string | undefined,
  ): Promise<MusicPlan | ReplayedTask<Task>> {
    const taskId = newPublicTaskId(MUSIC_TASK_ID_PREFIX);
    // The wire takes the body as sent: any URL field in it is one the upstream fetches.
    this.forwardedUrls.checkFieldsOf(submission.fields, '');
    const requestHash = taskRequestHash({
      route: `/lambda/submit/${submission.action}`,
      modelName: submission.model,
      remixOf: submission.continueTaskId,
      fields: submission.fields,
    });
    if (idempotencyKey !== undefined) {
      const earlier = await runtime.store
        .findByIdempotencyKey(key.id, idempotencyKey)
        .catch(taskStoreUnavailable);
      if (earlier) return { replayed: sameRequestOrConflict(earlier, MUSIC_TASK_KIND, requestHash) };
    }
    const source = await this.continuedTask(key, submission);
    const admitted = admitMusic(
      submission,
      key,
      this.routing,
      source?.channelId ? { channelId: source.channelId } : undefined,
    );
    const request: LambdaTaskRequest = {
      kind: 'lambda',
      action: submission.action,
      fields: submission.fields,
      continueOf: (source?.upstreamHandle as JsonHandle | undefined) ?? null,
    };
    return {
      runtime,
      taskId,
      submission,
      admitted,
      request,
      requestHash,
      hold: {
        requestId: taskId,
        model: submission.model,
        route: MUSIC_SUBMIT_ROUTE,
        amount: admitted.holdMicros,
        ttlMs: videoHoldTtlMs(this.deadlineMs()),
      },
      holdHint: HOLD_HINT,
    };
  }

  private async create(
    plan: MusicPlan,
    key: ResolvedKey,
    idempotencyKey: string | undefined,
  ): Promise<TaskCreated<Task>> {
    const { runtime, taskId, submission, admitted, request, requestHash } = plan;
    const created = await this.createRow(runtime, taskId, key, submission, admitted, request, {
      requestHash,
      idempotencyKey,
    });
    if (!created.created) {
      // Another request with the same key won the race: this one's hold is not needed.
      await this.rows.release(runtime, taskId, MUSIC_TASK_KIND);
      const task = sameRequestOrConflict(created.task, MUSIC_TASK_KIND, requestHash);
      return { created: task, taskId: task.id };
    }
    await this.rows.start(runtime, created.task);
    return { created: created.task, taskId: created.task.id };
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
    return this.rows.insertRow(runtime, {
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
