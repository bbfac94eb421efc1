import { describeUnadaptedTaskKind } from '@gateway/testing-workers';
import { WorkerImageModule } from './worker-image.module';

describeUnadaptedTaskKind({
  suiteName: 'worker-image (Postgres, Redis)',
  createModule: (env) => WorkerImageModule.forRoot({ env }),
  queue: 'imageTasks',
  kind: 'image',
  // A type with no definition: beta, this worker's own type, has a task adapter (and so do more and more).
  channelType: 'unregistered',
  model: 'unadapted-image-model',
  route: '/v1/images/generations',
  redisPrefix: 'test-wimage',
});
