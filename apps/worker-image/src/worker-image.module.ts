import { Module, type DynamicModule } from '@nestjs/common';
import {
  QUEUE_NAMES,
  TaskStepWorkerModule,
  WorkerRuntimeModule,
  type TaskStepWorkerAppOptions,
} from '@gateway/tasks';

/** Asynchronous image tasks (the beta Action API): submit, poll, settle. */
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
        }),
      ],
    };
  }
}
