import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { ResolvedKey } from '@gateway/auth';
import { imageTierPrice } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import type { ImageTaskView } from '@gateway/contracts';
import type { Task } from '@gateway/db';
import {
  IMAGE_JOB_TASK_PREFIX,
  isImageJobTask,
  responseFormatOfJob,
  toImageJobView,
  toStoredImageJob,
} from '@gateway/images';
import type { ObjectStore } from '@gateway/storage';
import { GatewayError } from '@gateway/errors';
import type { GenerationCall } from '../../../pipeline/synchronous-generation';
import type {
  PlannedTask,
  ReplayedTask,
  TaskCreated,
  TaskCreationRoute,
} from '../../../pipeline/task-creation-route';
import { CONFIG, LOGGER, OBJECT_STORE } from '../../../platform/infrastructure/tokens';
import { isPublicTaskId, newPublicTaskId } from '../../../tasks/public-task-id.util';
import { sameRequestOrConflict, TaskCreation } from '../../../tasks/task-creation.service';
import { taskRequestHash } from '../../../tasks/task-request-hash';
import type { TaskRuntime } from '../../../tasks/task-runtime';
import { TaskRuntimeLoader } from '../../../tasks/task-runtime.loader';
import { taskStoreUnavailable } from '../../../tasks/task-store-unavailable';
import { TaskStepQueues } from '../../../tasks/task-step.queues';
import { ImageGenerationService, type ImageInputOf, type ImagePlan } from './image-generation.service';

/** The row's kind: worker-image consumes the step jobs of image tasks (and runs these itself). */
const IMAGE_TASK_KIND = 'image';
/**
 * Past this the job is failed and released: a run may wait for an upstream task up to the image task
 * timeout, and a crashed run is taken over and made again once.
 */
const DEADLINE_MARGIN_MS = 5 * 60_000;

interface ImageJobPlan extends PlannedTask {
  runtime: TaskRuntime;
  taskId: string;
  image: ImagePlan;
  /** The request as the row keeps it (input images as `data:` URIs). */
  storedRequest: ReturnType<typeof toStoredImageJob>;
  idempotency?: { key: string; requestHash: string };
}

/** What a job's creation needs besides its body: the client's Idempotency-Key, and where images are served. */
export interface ImageJobContext {
  idempotencyKey: string | undefined;
  /** The base of the images' URLs, for a repeated request whose job has completed. */
  baseUrl: string;
}

/** A job and the view of it the client gets at once. */
export interface CreatedImageJob {
  task: ImageTaskView;
}

/**
 * Asynchronous image jobs (`Prefer: respond-async` on `POST /v1/images/generations` and `/edits`):
 * the synchronous route's plan (its body, family rules, refusals and price: ImageGenerationService),
 * admitted and held by the generation pipeline as a task (GenerationPipeline.createTask), then written
 * as an `img_…` task row whose step job worker-image runs (the upstream call, the failover, the
 * images kept in the object store, the settlement). Its reads answer the task, with the images once done.
 */
@Injectable()
export class ImageJobsService {
  constructor(
    private readonly images: ImageGenerationService,
    private readonly tasks: TaskRuntimeLoader,
    private readonly stepQueues: TaskStepQueues,
    private readonly rows: TaskCreation,
    @Inject(OBJECT_STORE) private readonly objects: ObjectStore,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * The job as the generation pipeline creates it. Under an Idempotency-Key, as a video create: the same
   * key with the same request answers the job it made first, holding and writing nothing more; with
   * another request (or a key a task of another kind took), 409 idempotency_conflict.
   */
  creation(
    input: ImageInputOf,
    call: GenerationCall,
    context: ImageJobContext,
  ): TaskCreationRoute<ImageJobPlan, CreatedImageJob> {
    return {
      key: call.key,
      route: this.images.routeOf(input),
      modelOfRefused: () => call.model,
      plan: () => this.plan(input, call, context),
      create: (plan) => this.create(plan, call.key, context.baseUrl),
    };
  }

  private async plan(
    input: ImageInputOf,
    call: GenerationCall,
    context: ImageJobContext,
  ): Promise<ImageJobPlan | ReplayedTask<CreatedImageJob>> {
    const image = await this.images.plan(input, call);
    const runtime = await this.tasks.runtime();
    const storedRequest = toStoredImageJob({ operation: operationOf(image.route), request: image.request });
    let idempotency: ImageJobPlan['idempotency'];
    if (context.idempotencyKey !== undefined) {
      const requestHash = taskRequestHash({
        route: image.route,
        modelName: image.model,
        remixOf: undefined,
        fields: storedRequest,
      });
      idempotency = { key: context.idempotencyKey, requestHash };
      const earlier = await runtime.store
        .findByIdempotencyKey(call.key.id, context.idempotencyKey)
        .catch(taskStoreUnavailable);
      if (earlier) return { replayed: await this.replayed(earlier, requestHash, context.baseUrl) };
    }
    const taskId = newPublicTaskId(IMAGE_JOB_TASK_PREFIX);
    return {
      runtime,
      taskId,
      image,
      storedRequest,
      idempotency,
      hold: {
        requestId: taskId,
        model: image.model,
        route: image.route,
        amount: image.holdMicros,
        ttlMs: this.deadlineMs() + this.images.holdTtlMs(this.config),
      },
      holdHint: this.images.holdHint,
    };
  }

  /** The job an earlier request under the same Idempotency-Key made, as it stands now; 409 for another request. */
  private async replayed(earlier: Task, requestHash: string, baseUrl: string): Promise<CreatedImageJob> {
    const task = sameRequestOrConflict(earlier, IMAGE_TASK_KIND, requestHash);
    const view = await toImageJobView(task, {
      objects: this.objects,
      baseUrl,
      format: responseFormatOfJob(task),
    });
    return { task: view };
  }

  /** The caller's job, answered as its task; any other id (another account's, a `/bt` task's) is 404. */
  async find(
    key: ResolvedKey,
    taskId: string,
    baseUrl: string,
  ): Promise<{ task: Task; view: ImageTaskView }> {
    if (!isPublicTaskId(taskId, IMAGE_JOB_TASK_PREFIX)) throw jobNotFound();
    const runtime = await this.tasks.runtime();
    const task = await runtime.store.findOwned(taskId, key.accountId).catch(taskStoreUnavailable);
    if (!task || !isImageJobTask(task.id)) throw jobNotFound();
    const view = await toImageJobView(task, {
      objects: this.objects,
      baseUrl,
      format: responseFormatOfJob(task),
    });
    return { task, view };
  }

  /** From here every path ends the hold: the worker's settlement, or a release. */
  private async create(
    plan: ImageJobPlan,
    key: ResolvedKey,
    baseUrl: string,
  ): Promise<TaskCreated<CreatedImageJob>> {
    const { runtime, taskId, image, idempotency } = plan;
    const written = await this.rows.insertRow(runtime, {
      id: taskId,
      kind: IMAGE_TASK_KIND,
      keyId: key.id,
      accountId: key.accountId,
      model: image.model,
      request: plan.storedRequest as never,
      holdRequestId: taskId,
      priceSnapshot: priceSnapshotOf(runtime, image),
      deadlineAt: new Date(Date.now() + this.deadlineMs()),
      ...(idempotency ? { idempotencyKey: idempotency.key, requestHash: idempotency.requestHash } : {}),
    });
    if (!written.created) {
      // Another request under the same Idempotency-Key wrote its job first: this one's hold is not needed.
      await this.rows.release(runtime, taskId, IMAGE_TASK_KIND);
      const replayed = await this.replayed(written.task, idempotency?.requestHash ?? '', baseUrl);
      return { created: replayed, taskId: written.task.id };
    }
    const { task } = written;
    // The worker runs a job nobody asks about; if Redis is down, the stranded-task sweep enqueues it.
    await this.stepQueues.enqueueStep(IMAGE_TASK_KIND, taskId).catch((error: unknown) => {
      this.logger.warn({ err: error, taskId }, 'image job step could not be enqueued');
    });
    // Just created: no images to render yet.
    const view = await toImageJobView(task, { baseUrl: '', format: 'url' });
    return { created: { task: view }, taskId };
  }

  private deadlineMs(): number {
    return 2 * this.config.imageTaskTimeoutMs + DEADLINE_MARGIN_MS;
  }
}

function operationOf(route: string): 'generate' | 'edit' {
  return route.endsWith('/edits') ? 'edit' : 'generate';
}

/**
 * The price the job settles at (TaskSettlementService: the per-call price and each image delivered at
 * its tier): the tier planned for the first channel that serves the request, as the synchronous
 * route's capture takes the planned tier where the upstream reports none.
 */
function priceSnapshotOf(runtime: TaskRuntime, image: ImagePlan) {
  const served = image.candidates.find((candidate) => image.serves(candidate));
  const tier = (served && image.planFor(served)?.priceTier) ?? {};
  const each = imageTierPrice(image.price, tier);
  return runtime.imagePriceSnapshot({
    tier,
    perCallMicros: image.price.perCall,
    perImageMicros: each.ok ? each.micros : 0n,
  });
}

function jobNotFound(): GatewayError {
  return new GatewayError('not_found', 'No image task found with this id.', { param: 'id' });
}
