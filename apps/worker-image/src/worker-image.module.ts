import { Module, type DynamicModule } from '@nestjs/common';
import type { GatewayConfig } from '@gateway/config';
import { imageJobSteps } from '@gateway/images/worker';
import { createObjectStore } from '@gateway/storage';
import { QUEUE_NAMES, WORKER_CONFIG } from '@gateway/tasks';
import {
  TaskStepWorkerModule,
  WorkerRuntimeModule,
  type TaskStepWorkerAppOptions,
} from '@gateway/tasks/worker';
import { OBJECT_STORE } from './object-store.token';
import { StoredFilesSweepProcessor } from './stored-files-sweep.processor';

/**
 * Asynchronous image tasks: the beta Action API's (submit, poll, settle) and the image jobs of
 * `Prefer: respond-async` (the synchronous route's upstream call, made here); and the stored files'
 * retention.
 */
@Module({})
export class WorkerImageModule {
  static forRoot(options: TaskStepWorkerAppOptions = {}): DynamicModule {
    const { env, ...stepOptions } = options;
    return {
      module: WorkerImageModule,
      imports: [
        WorkerRuntimeModule.forRoot({ serviceName: 'worker-image', env }),
        TaskStepWorkerModule.forQueue({
          ...stepOptions,
          queue: QUEUE_NAMES.imageTasks,
          concurrencyVariable: 'IMAGE_WORKER_CONCURRENCY',
          defaultConcurrency: 16,
          delegatedSteps: imageJobSteps(),
        }),
      ],
      providers: [
        {
          provide: OBJECT_STORE,
          useFactory: (config: GatewayConfig) => createObjectStore(config.objectStore),
          inject: [WORKER_CONFIG],
        },
        StoredFilesSweepProcessor,
      ],
    };
  }
}
