import '@gateway/observability/nest-preload';
import { exitOnBootFailure, runWorkerApp } from '@gateway/tasks';
import { WorkerVideoModule } from './worker-video.module';

runWorkerApp(WorkerVideoModule.forRoot()).catch(exitOnBootFailure);
