import { Module, type DynamicModule } from '@nestjs/common';
import {
  QUEUE_NAMES,
  TaskStepWorkerModule,
  WorkerRuntimeModule,
  type TaskStepWorkerAppOptions,
} from '@gateway/tasks';

/** The theta asset library: uploads, then status polling until Active. */
@Module({})
export class WorkerAssetsModule {
  static forRoot(options: TaskStepWorkerAppOptions = {}): DynamicModule {
    const { env, ...stepOptions } = options;
    return {
      module: WorkerAssetsModule,
      imports: [
        WorkerRuntimeModule.forRoot({ serviceName: 'worker-assets', env }),
        TaskStepWorkerModule.forQueue({
          ...stepOptions,
          queue: QUEUE_NAMES.assetTasks,
          concurrencyVariable: 'ASSET_WORKER_CONCURRENCY',
          defaultConcurrency: 16,
        }),
      ],
    };
  }
}
