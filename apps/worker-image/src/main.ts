import '@gateway/observability/nest-preload';
import { exitOnBootFailure, runWorkerApp } from '@gateway/tasks';
import { WorkerImageModule } from './worker-image.module';

runWorkerApp(WorkerImageModule.forRoot()).catch(exitOnBootFailure);
