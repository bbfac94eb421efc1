import {
  expectSchedulerRecreatedAfterRedisLoss,
  startWorkerOnFreshStores,
  type WorkerOnFreshStores,
} from '@gateway/testing';
import { Module } from '@nestjs/common';
import { QUEUE_NAMES } from '../queue-names';
import { OVERDUE_SWEEP_JOB_NAME } from './task-step.consumer';
import { TaskStepWorkerModule } from './task-step-worker.module';
import { WorkerRuntimeModule } from './worker-runtime.module';

const SWEEP_INTERVAL_MS = 45_000;

@Module({})
class TaskWorkerTestModule {}

describe('a task worker after Redis lost its data (Postgres, Redis)', () => {
  let worker: WorkerOnFreshStores;

  beforeAll(async () => {
    worker = await startWorkerOnFreshStores({
      prefixLabel: 'task-loss',
      queueName: QUEUE_NAMES.videoTasks,
      module: (env) => ({
        module: TaskWorkerTestModule,
        imports: [
          WorkerRuntimeModule.forRoot({ serviceName: 'worker-test', env }),
          TaskStepWorkerModule.forQueue({
            queue: QUEUE_NAMES.videoTasks,
            concurrencyVariable: 'VIDEO_WORKER_CONCURRENCY',
            defaultConcurrency: 1,
            overdueSweepIntervalMs: SWEEP_INTERVAL_MS,
          }),
        ],
      }),
    });
  });
  afterAll(() => worker.close());

  it('recreates the overdue sweep scheduler when its connection is ready again, without a restart', async () => {
    await expectSchedulerRecreatedAfterRedisLoss(worker, OVERDUE_SWEEP_JOB_NAME, SWEEP_INTERVAL_MS);
  });
});
