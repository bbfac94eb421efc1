import '@gateway/observability/nest-preload';
import { exitOnBootFailure, runWorkerApp } from '@gateway/tasks';
import { WorkerTextModule } from './worker-text.module';

runWorkerApp(WorkerTextModule.forRoot()).catch(exitOnBootFailure);
