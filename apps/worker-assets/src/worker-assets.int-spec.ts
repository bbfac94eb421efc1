import { describeUnadaptedTaskKind } from '@gateway/testing-workers';
import { WorkerAssetsModule } from './worker-assets.module';

describeUnadaptedTaskKind({
  suiteName: 'worker-assets (Postgres, Redis)',
  createModule: (env) => WorkerAssetsModule.forRoot({ env }),
  queue: 'assetTasks',
  kind: 'asset',
  channelType: 'omega',
  model: 'omega-1',
  route: '/theta/assets',
  redisPrefix: 'test-wassets',
});
