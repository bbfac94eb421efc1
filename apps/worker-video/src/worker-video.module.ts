import { Module, type DynamicModule } from '@nestjs/common';
import { QUEUE_NAMES } from '@gateway/tasks';
import {
  MusicPollModule,
  TaskStepWorkerModule,
  WorkerRuntimeModule,
  type TaskStepWorkerAppOptions,
} from '@gateway/tasks/worker';

/** Video and music tasks: submit, poll with growing delays, settle. Scales on its own: run as many as the upstreams' latency needs. */
@Module({})
export class WorkerVideoModule {
  static forRoot(options: TaskStepWorkerAppOptions = {}): DynamicModule {
    const { env, ...stepOptions } = options;
    return {
      module: WorkerVideoModule,
      imports: [
        WorkerRuntimeModule.forRoot({ serviceName: 'worker-video', env }),
        TaskStepWorkerModule.forQueue({
          ...stepOptions,
          queue: QUEUE_NAMES.videoTasks,
          concurrencyVariable: 'VIDEO_WORKER_CONCURRENCY',
          defaultConcurrency: 32,
        }),
        MusicPollModule.forRoot(stepOptions),
      ],
    };
  }
}
