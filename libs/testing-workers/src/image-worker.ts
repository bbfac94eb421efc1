import { Module, type DynamicModule } from '@nestjs/common';
import { imageJobSteps } from '@gateway/images/worker';
import { QUEUE_NAMES } from '@gateway/tasks';
import { TaskStepWorkerModule, WorkerRuntimeModule } from '@gateway/tasks/worker';

/**
 * worker-image's composition (apps/worker-image/src/worker-image.module.ts: the shared step worker on
 * the image-tasks queue, with the steps of asynchronous image jobs), built from the libraries for the
 * tests of other apps, which may not import worker-image; configured by the environment given (the
 * gateway's under test), with short poll delays.
 */
@Module({})
export class ImageWorkerUnderTest {
  static forEnvironment(env: Record<string, string>): DynamicModule {
    return {
      module: ImageWorkerUnderTest,
      imports: [
        WorkerRuntimeModule.forRoot({ serviceName: 'worker-image', env }),
        TaskStepWorkerModule.forQueue({
          queue: QUEUE_NAMES.imageTasks,
          concurrencyVariable: 'IMAGE_WORKER_CONCURRENCY',
          defaultConcurrency: 4,
          timing: { minPollDelayMs: 20, maxPollDelayMs: 100 },
          delegatedSteps: imageJobSteps(),
        }),
      ],
    };
  }
}
