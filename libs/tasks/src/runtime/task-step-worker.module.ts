import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { GovernanceReservations, SettlementService } from '@gateway/billing';
import type { Environment, GatewayConfig } from '@gateway/config';
import type { PrismaClient } from '@gateway/db';
import { SettlementMetrics, TaskMetrics, type GatewayLogger } from '@gateway/observability';
import { taskAdaptersByType } from '@gateway/providers';
import {
  createUndiciHttpClient,
  systemClock,
  type Clock,
  type ClosableUpstreamHttpClient,
  type TaskAdapter,
} from '@gateway/providers-core';
import type { Pool } from 'pg';
import type { QueueName } from '../queue-names';
import { PrismaTaskChannelResolver, type ChannelConnector } from '../task/prisma-task-channel.resolver';
import { RedisPollRateGate } from '../task/redis-poll-rate.gate';
import { createRegistryChannelConnector } from '../task/registry-channel.connector';
import { TaskSettlementService } from '../task/task-settlement.service';
import { tracedTaskSettlements } from '../task/traced-settlement.util';
import { TaskStepProcessor } from '../task/task-step.processor';
import type { TaskStepTiming } from '../task/task-step.types';
import type { TaskChangeAnnouncer } from '../task/task-change.publisher';
import { TaskStore } from '../task/task-store';
import { DELEGATED_TASK_STEPS, type DelegatedTaskStepsFactory } from './delegated-task-steps';
import { QueueRuntime } from './queue-runtime.service';
import { TaskStepConsumer } from './task-step.consumer';
import {
  readSweepSettings,
  readTaskStepTiming,
  TASK_STEP_WORKER_SETTINGS,
  type TaskStepWorkerSettings,
} from './task-step-worker.settings';
import { readWorkerConcurrency } from './worker-environment.util';
import {
  PG_POOL,
  PRISMA_CLIENT,
  TASK_CHANGE_ANNOUNCER,
  WORKER_CONFIG,
  WORKER_ENVIRONMENT,
  WORKER_LOGGER,
} from './worker-runtime.tokens';

export interface TaskStepWorkerOptions {
  queue: QueueName;
  /** Environment variable holding the concurrency, e.g. VIDEO_WORKER_CONCURRENCY. */
  concurrencyVariable: string;
  defaultConcurrency: number;
  /**
   * Task adapters by channel type; the provider registry's when absent. Without one, a task of that
   * type fails cleanly and releases.
   */
  adapters?: ReadonlyMap<string, TaskAdapter>;
  /**
   * Turns a channel row into an adapter context; when absent, the row is decrypted and parsed by its
   * type's definition in the registry, and calls go through this worker's own HTTP client.
   */
  connectChannel?: ChannelConnector;
  /** Overrides the timing read from the environment (TASK_MIN_POLL_DELAY_MS …). */
  timing?: Partial<TaskStepTiming>;
  /** Override TASK_SWEEP_INTERVAL_MS and TASK_STRANDED_AFTER_MS. */
  overdueSweepIntervalMs?: number;
  strandedSweepIntervalMs?: number;
  strandedAfterMs?: number;
  clock?: Clock;
  /** Tasks on this queue whose steps the app's own processor runs (see DelegatedTaskSteps). */
  delegatedSteps?: DelegatedTaskStepsFactory;
}

/** What a task worker app lets its caller (main.ts, a test) choose; the queue is the app's own. */
export type TaskStepWorkerAppOptions = Omit<
  TaskStepWorkerOptions,
  'queue' | 'concurrencyVariable' | 'defaultConcurrency'
> & {
  /** The environment to configure from; the process environment when absent. */
  env?: Environment;
};

/** The HTTP client the registry's adapters call upstreams through, closed when the worker stops. */
export const TASK_UPSTREAM_HTTP = Symbol('TASK_UPSTREAM_HTTP');

/** One task queue consumed by the shared step processor; imported once per worker app. */
@Module({})
export class TaskStepWorkerModule implements OnApplicationShutdown {
  constructor(@Inject(TASK_UPSTREAM_HTTP) private readonly http: ClosableUpstreamHttpClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.http.close();
  }

  static forQueue(options: TaskStepWorkerOptions): DynamicModule {
    const adapters = options.adapters ?? taskAdaptersByType();
    const clock = options.clock ?? systemClock;
    return {
      module: TaskStepWorkerModule,
      providers: [
        {
          provide: TASK_STEP_WORKER_SETTINGS,
          useFactory: (env: Environment): TaskStepWorkerSettings => {
            const sweeps = readSweepSettings(env);
            return {
              queue: options.queue,
              concurrency: readWorkerConcurrency(
                env,
                options.concurrencyVariable,
                options.defaultConcurrency,
              ),
              overdueSweepIntervalMs: options.overdueSweepIntervalMs ?? sweeps.overdueSweepIntervalMs,
              strandedSweepIntervalMs: options.strandedSweepIntervalMs ?? sweeps.strandedSweepIntervalMs,
              strandedAfterMs: options.strandedAfterMs ?? sweeps.strandedAfterMs,
            };
          },
          inject: [WORKER_ENVIRONMENT],
        },
        { provide: TASK_UPSTREAM_HTTP, useFactory: () => createUndiciHttpClient() },
        {
          provide: TaskStore,
          useFactory: (prisma: PrismaClient, pool: Pool, changes: TaskChangeAnnouncer) =>
            new TaskStore(prisma, pool, changes),
          inject: [PRISMA_CLIENT, PG_POOL, TASK_CHANGE_ANNOUNCER],
        },
        {
          provide: TaskSettlementService,
          useFactory: (pool: Pool, prisma: PrismaClient, settlementMetrics: SettlementMetrics) =>
            new TaskSettlementService(
              new SettlementService(pool, settlementMetrics),
              prisma,
              new GovernanceReservations(pool),
            ),
          inject: [PG_POOL, PRISMA_CLIENT, SettlementMetrics],
        },
        {
          provide: TaskStepProcessor,
          useFactory: (
            store: TaskStore,
            prisma: PrismaClient,
            settlement: TaskSettlementService,
            logger: GatewayLogger,
            config: GatewayConfig,
            http: ClosableUpstreamHttpClient,
            env: Environment,
            metrics: TaskMetrics,
            queues: QueueRuntime,
          ) =>
            new TaskStepProcessor({
              store,
              adapters,
              channels: new PrismaTaskChannelResolver(
                prisma,
                options.connectChannel ??
                  createRegistryChannelConnector({ keyring: config.masterKeys.keys, http, clock, logger }),
              ),
              ...tracedTaskSettlements(settlement),
              clock,
              logger,
              timing: { ...readTaskStepTiming(env), ...options.timing },
              metrics,
              pollGate: new RedisPollRateGate(() => queues.commands(), config.redisPrefix, logger),
            }),
          inject: [
            TaskStore,
            PRISMA_CLIENT,
            TaskSettlementService,
            WORKER_LOGGER,
            WORKER_CONFIG,
            TASK_UPSTREAM_HTTP,
            WORKER_ENVIRONMENT,
            TaskMetrics,
            QueueRuntime,
          ],
        },
        options.delegatedSteps
          ? { provide: DELEGATED_TASK_STEPS, ...options.delegatedSteps }
          : { provide: DELEGATED_TASK_STEPS, useValue: null },
        TaskStepConsumer,
      ],
    };
  }
}
