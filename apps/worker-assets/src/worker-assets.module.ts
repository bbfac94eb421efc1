import { Module, type DynamicModule } from '@nestjs/common';
import type { Environment } from '@gateway/config';
import {
  AssetStatusWorkerModule,
  WorkerRuntimeModule,
  type AssetStatusWorkerOptions,
} from '@gateway/tasks/worker';

export interface WorkerAssetsOptions extends AssetStatusWorkerOptions {
  /** The environment to configure from; the process environment when absent. */
  env?: Environment;
}

/**
 * The theta asset library's worker: it looks at each uploaded asset's processing on the upstream's
 * control plane until it is Active or Failed (AssetStatusWorkerModule, on asset-tasks).
 */
@Module({})
export class WorkerAssetsModule {
  static forRoot(options: WorkerAssetsOptions = {}): DynamicModule {
    const { env, ...assetOptions } = options;
    return {
      module: WorkerAssetsModule,
      imports: [
        WorkerRuntimeModule.forRoot({ serviceName: 'worker-assets', env }),
        AssetStatusWorkerModule.forRoot(assetOptions),
      ],
    };
  }
}
