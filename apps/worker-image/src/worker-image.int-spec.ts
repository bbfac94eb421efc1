import { describeUnadaptedTaskKind } from '@gateway/testing-workers';
import { WorkerImageModule } from './worker-image.module';

describeUnadaptedTaskKind({
  suiteName: 'worker-image (Postgres, Redis)',
  createModule: (env) => WorkerImageModule.forRoot({ env }),
  queue: 'imageTasks',
  kind: 'image',
  channelType: 'beta',
  model: 'beta-1',
  route: '/bt/submit',
  redisPrefix: 'test-wimage',
});
