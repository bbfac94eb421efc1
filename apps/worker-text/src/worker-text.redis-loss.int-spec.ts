import { QUEUE_NAMES } from '@gateway/tasks';
import {
  expectSchedulerRecreatedAfterRedisLoss,
  startWorkerOnFreshStores,
  type WorkerOnFreshStores,
} from '@gateway/testing';
import { HOLD_REAPER_SCHEDULER_ID } from './hold-reaper.processor';
import { WorkerTextModule } from './worker-text.module';

describe('worker-text after Redis lost its data (Postgres, Redis)', () => {
  let worker: WorkerOnFreshStores;

  beforeAll(async () => {
    worker = await startWorkerOnFreshStores({
      prefixLabel: 'wtext-loss',
      queueName: QUEUE_NAMES.textMaintenance,
      module: (env) => WorkerTextModule.forRoot({ env }),
    });
  });
  afterAll(() => worker.close());

  it('recreates the hold reaper scheduler when its connection is ready again, without a restart', async () => {
    await expectSchedulerRecreatedAfterRedisLoss(worker, HOLD_REAPER_SCHEDULER_ID, 30_000);
  });
});
