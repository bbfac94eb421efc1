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
import type { PlannedTask, TaskCreated, TaskCreationRoute } from '../../../pipeline/task-creation-route';
import { CONFIG, LOGGER, OBJECT_STORE } from '../../../platform/infrastructure/tokens';
import { isPublicTaskId, newPublicTaskId } from '../../../tasks/public-task-id.util';
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
    @Inject(OBJECT_STORE) private readonly objects: ObjectStore,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The job as the generation pipeline creates it. */
  creation(input: ImageInputOf, call: GenerationCall): TaskCreationRoute<ImageJobPlan, CreatedImageJob> {
    return {
      key: call.key,
      route: this.images.routeOf(input),
      modelOfRefused: () => call.model,
      plan: async () => {
        const image = await this.images.plan(input, call);
        const taskId = newPublicTaskId(IMAGE_JOB_TASK_PREFIX);
        return {
          runtime: await this.tasks.runtime(),
          taskId,
          image,
          hold: {
            requestId: taskId,
            model: image.model,
            route: image.route,
            amount: image.holdMicros,
            ttlMs: this.deadlineMs() + this.images.holdTtlMs(this.config),
          },
          holdHint: this.images.holdHint,
        };
      },
      create: (plan) => this.create(plan, call.key),
    };
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
  private async create(plan: ImageJobPlan, key: ResolvedKey): Promise<TaskCreated<CreatedImageJob>> {
    const { runtime, taskId, image } = plan;
    let task: Task;
    try {
      ({ task } = await runtime.store.create({
        id: taskId,
        kind: IMAGE_TASK_KIND,
        keyId: key.id,
        accountId: key.accountId,
        model: image.model,
        request: toStoredImageJob({ operation: operationOf(image.route), request: image.request }) as never,
        holdRequestId: taskId,
        priceSnapshot: priceSnapshotOf(runtime, image),
        deadlineAt: new Date(Date.now() + this.deadlineMs()),
      }));
    } catch (error) {
      await runtime.settlement.releaseHold(taskId).catch((releaseError: unknown) => {
        // The hold reaper releases it at its time to live.
        this.logger.error({ err: releaseError, taskId }, 'hold of an unwritten image job not released');
      });
      throw taskStoreUnavailable(error);
    }
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
