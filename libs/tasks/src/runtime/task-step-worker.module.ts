import { Module, type DynamicModule } from '@nestjs/common';
import { SettlementService } from '@gateway/billing';
import type { Environment } from '@gateway/config';
import type { PrismaClient } from '@gateway/db';
import type { GatewayLogger } from '@gateway/observability';
import { systemClock, type Clock } from '@gateway/providers-core';
import type { Pool } from 'pg';
import type { QueueName } from '../queue-names';
import type { AsyncAdapter } from '../task/async-adapter';
import { PrismaTaskChannelResolver, type ChannelConnector } from '../task/prisma-task-channel.resolver';
import { TaskSettlementService } from '../task/task-settlement.service';
import { TaskStepProcessor } from '../task/task-step.processor';
import type { TaskStepTiming } from '../task/task-step.types';
import { TaskStore } from '../task/task-store';
import { TaskStepConsumer } from './task-step.consumer';
import { TASK_STEP_WORKER_SETTINGS, type TaskStepWorkerSettings } from './task-step-worker.settings';
import { readWorkerConcurrency } from './worker-environment.util';
import { PG_POOL, PRISMA_CLIENT, WORKER_ENVIRONMENT, WORKER_LOGGER } from './worker-runtime.tokens';

export interface TaskStepWorkerOptions {
  queue: QueueName;
  /** Environment variable holding the concurrency, e.g. VIDEO_WORKER_CONCURRENCY. */
  concurrencyVariable: string;
  defaultConcurrency: number;
  /** Asynchronous adapters by channel type. Without one, a task of that type fails cleanly and releases. */
  adapters?: ReadonlyMap<string, AsyncAdapter>;
  /** Required as soon as an adapter is registered: turns a channel row into an adapter context. */
  connectChannel?: ChannelConnector;
  timing?: Partial<TaskStepTiming>;
  overdueSweepIntervalMs?: number;
  clock?: Clock;
}

/** What a task worker app lets its caller (main.ts, a test) choose; the queue is the app's own. */
export type TaskStepWorkerAppOptions = Omit<
  TaskStepWorkerOptions,
  'queue' | 'concurrencyVariable' | 'defaultConcurrency'
> & {
  /** The environment to configure from; the process environment when absent. */
  env?: Environment;
};

const DEFAULT_OVERDUE_SWEEP_INTERVAL_MS = 60_000;

const unconnectedChannel: ChannelConnector = async (channel) => {
  throw new Error(`no channel connector is configured for channel type ${channel.type}`);
};

/** One task queue consumed by the shared step processor; imported once per worker app. */
@Module({})
export class TaskStepWorkerModule {
  static forQueue(options: TaskStepWorkerOptions): DynamicModule {
    const adapters = options.adapters ?? new Map<string, AsyncAdapter>();
    if (adapters.size > 0 && !options.connectChannel) {
      throw new Error(`${options.queue}: asynchronous adapters are registered but no channel connector is`);
    }
    return {
      module: TaskStepWorkerModule,
      providers: [
        {
          provide: TASK_STEP_WORKER_SETTINGS,
          useFactory: (env: Environment): TaskStepWorkerSettings => ({
            queue: options.queue,
            concurrency: readWorkerConcurrency(env, options.concurrencyVariable, options.defaultConcurrency),
            overdueSweepIntervalMs: options.overdueSweepIntervalMs ?? DEFAULT_OVERDUE_SWEEP_INTERVAL_MS,
          }),
          inject: [WORKER_ENVIRONMENT],
        },
        {
          provide: TaskStore,
          useFactory: (prisma: PrismaClient) => new TaskStore(prisma),
          inject: [PRISMA_CLIENT],
        },
        {
          provide: TaskSettlementService,
          useFactory: (pool: Pool, prisma: PrismaClient) =>
            new TaskSettlementService(new SettlementService(pool), prisma),
          inject: [PG_POOL, PRISMA_CLIENT],
        },
        {
          provide: TaskStepProcessor,
          useFactory: (
            store: TaskStore,
            prisma: PrismaClient,
            settlement: TaskSettlementService,
            logger: GatewayLogger,
          ) =>
            new TaskStepProcessor({
              store,
              adapters,
              channels: new PrismaTaskChannelResolver(prisma, options.connectChannel ?? unconnectedChannel),
              releaseHold: (holdRequestId) => settlement.releaseHold(holdRequestId),
              settle: (task, outcome) => settlement.settle(task, outcome),
              clock: options.clock ?? systemClock,
              logger,
              timing: options.timing,
            }),
          inject: [TaskStore, PRISMA_CLIENT, TaskSettlementService, WORKER_LOGGER],
        },
        TaskStepConsumer,
      ],
    };
  }
}
