import '@gateway/observability/nest-preload';
import { exitOnBootFailure, runWorkerApp } from '@gateway/tasks';
import { WorkerAssetsModule } from './worker-assets.module';

runWorkerApp(WorkerAssetsModule.forRoot()).catch(exitOnBootFailure);
