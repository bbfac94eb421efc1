import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { Environment, GatewayConfig } from '@gateway/config';
import type { PrismaClient } from '@gateway/db';
import type { GatewayLogger } from '@gateway/observability';
import {
  createUndiciHttpClient,
  systemClock,
  type Clock,
  type ClosableUpstreamHttpClient,
} from '@gateway/providers-core';
import { readTaskStepTiming } from '../runtime/task-step-worker.settings';
import {
  PRISMA_CLIENT,
  WORKER_CONFIG,
  WORKER_ENVIRONMENT,
  WORKER_LOGGER,
} from '../runtime/worker-runtime.tokens';
import { createRegistryChannelConnector } from '../task/registry-channel.connector';
import type { TaskStepTiming } from '../task/task-step.types';
import { AssetStatusConsumer } from './asset-status.consumer';
import { AssetStatusProcessor } from './asset-status.processor';
import {
  ASSET_STATUS_SETTINGS,
  readAssetStatusSettings,
  type AssetStatusSettings,
} from './asset-status.settings';
import { AssetStatusStore } from './asset-status.store';

export interface AssetStatusWorkerOptions {
  /** Overrides of the settings read from the environment (a test's short deadline or sweep). */
  settings?: Partial<AssetStatusSettings>;
  /** Overrides of the look timing read from TASK_MIN_POLL_DELAY_MS and TASK_MAX_POLL_DELAY_MS. */
  timing?: Partial<TaskStepTiming>;
  clock?: Clock;
}

const ASSET_UPSTREAM_HTTP = Symbol('ASSET_UPSTREAM_HTTP');

/** worker-assets' work: the status of the theta assets the upstream processes, on asset-tasks. */
@Module({})
export class AssetStatusWorkerModule implements OnApplicationShutdown {
  constructor(@Inject(ASSET_UPSTREAM_HTTP) private readonly http: ClosableUpstreamHttpClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.http.close();
  }

  static forRoot(options: AssetStatusWorkerOptions = {}): DynamicModule {
    const clock = options.clock ?? systemClock;
    return {
      module: AssetStatusWorkerModule,
      providers: [
        {
          provide: ASSET_STATUS_SETTINGS,
          useFactory: (env: Environment): AssetStatusSettings => ({
            ...readAssetStatusSettings(env),
            ...options.settings,
          }),
          inject: [WORKER_ENVIRONMENT],
        },
        { provide: ASSET_UPSTREAM_HTTP, useFactory: () => createUndiciHttpClient() },
        {
          provide: AssetStatusStore,
          useFactory: (prisma: PrismaClient) => new AssetStatusStore(prisma),
          inject: [PRISMA_CLIENT],
        },
        {
          provide: AssetStatusProcessor,
          useFactory: (
            store: AssetStatusStore,
            settings: AssetStatusSettings,
            config: GatewayConfig,
            logger: GatewayLogger,
            http: ClosableUpstreamHttpClient,
            env: Environment,
          ) =>
            new AssetStatusProcessor({
              store,
              connectChannel: createRegistryChannelConnector({
                keyring: config.masterKeys.keys,
                http,
                clock,
                logger,
              }),
              clock,
              logger,
              timing: { ...readTaskStepTiming(env), ...options.timing },
              processingDeadlineMs: settings.processingDeadlineMs,
            }),
          inject: [
            AssetStatusStore,
            ASSET_STATUS_SETTINGS,
            WORKER_CONFIG,
            WORKER_LOGGER,
            ASSET_UPSTREAM_HTTP,
            WORKER_ENVIRONMENT,
          ],
        },
        AssetStatusConsumer,
      ],
    };
  }
}
