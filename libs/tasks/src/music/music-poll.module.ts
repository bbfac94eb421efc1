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
import { readTaskStepTiming } from '../runtime/task-step-worker.settings';
import { readPositiveInteger } from '../runtime/worker-environment.util';
import {
  PG_POOL,
  PRISMA_CLIENT,
  TASK_CHANGE_ANNOUNCER,
  WORKER_CONFIG,
  WORKER_ENVIRONMENT,
  WORKER_LOGGER,
} from '../runtime/worker-runtime.tokens';
import { PrismaTaskChannelResolver, type ChannelConnector } from '../task/prisma-task-channel.resolver';
import { createRegistryChannelConnector } from '../task/registry-channel.connector';
import { TaskSettlementService } from '../task/task-settlement.service';
import { tracedTaskSettlements } from '../task/traced-settlement.util';
import { TaskStepProcessor } from '../task/task-step.processor';
import type { TaskChangeAnnouncer } from '../task/task-change.publisher';
import { TaskStore } from '../task/task-store';
import { MusicBatchPoller } from './music-batch.poller';
import { MUSIC_POLL_INTERVAL, MusicPollConsumer } from './music-poll.consumer';

export interface MusicPollOptions {
  /** Task adapters by channel type; the provider registry's when absent (as for the step worker). */
  adapters?: ReadonlyMap<string, TaskAdapter>;
  /** Turns a channel row into an adapter context; the registry's connector when absent. */
  connectChannel?: ChannelConnector;
  clock?: Clock;
}

const DEFAULT_POLL_INTERVAL_MS = 5_000;
const MAX_POLL_INTERVAL_MS = 3_600_000;
/** The HTTP client the batch queries go through, closed when the worker stops. */
const MUSIC_UPSTREAM_HTTP = Symbol('MUSIC_UPSTREAM_HTTP');

/**
 * The music poll cycle (MusicBatchPoller on its own queue), for worker-video beside its step worker:
 * music tasks are submitted by their step jobs and polled here in batches. MUSIC_POLL_INTERVAL_MS
 * sets the cycle (default 5 s).
 */
@Module({})
export class MusicPollModule implements OnApplicationShutdown {
  constructor(@Inject(MUSIC_UPSTREAM_HTTP) private readonly http: ClosableUpstreamHttpClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.http.close();
  }

  static forRoot(options: MusicPollOptions = {}): DynamicModule {
    const adapters = options.adapters ?? taskAdaptersByType();
    const clock = options.clock ?? systemClock;
    return {
      module: MusicPollModule,
      providers: [
        {
          provide: MUSIC_POLL_INTERVAL,
          useFactory: (env: Environment) =>
            readPositiveInteger(
              env,
              'MUSIC_POLL_INTERVAL_MS',
              DEFAULT_POLL_INTERVAL_MS,
              MAX_POLL_INTERVAL_MS,
            ),
          inject: [WORKER_ENVIRONMENT],
        },
        { provide: MUSIC_UPSTREAM_HTTP, useFactory: () => createUndiciHttpClient() },
        {
          provide: MusicBatchPoller,
          useFactory: (
            prisma: PrismaClient,
            pool: Pool,
            logger: GatewayLogger,
            config: GatewayConfig,
            http: ClosableUpstreamHttpClient,
            taskMetrics: TaskMetrics,
            settlementMetrics: SettlementMetrics,
            env: Environment,
            changes: TaskChangeAnnouncer,
          ) => {
            const connectChannel =
              options.connectChannel ??
              createRegistryChannelConnector({ keyring: config.masterKeys.keys, http, clock, logger });
            const settlement = new TaskSettlementService(
              new SettlementService(pool, settlementMetrics),
              prisma,
              new GovernanceReservations(pool),
            );
            // Only its recordPoll is used: the same transitions and settlement as the step jobs'.
            const processor = new TaskStepProcessor({
              store: new TaskStore(prisma, pool, changes),
              adapters,
              channels: new PrismaTaskChannelResolver(prisma, connectChannel),
              ...tracedTaskSettlements(settlement),
              clock,
              logger,
              metrics: taskMetrics,
              // The workers' timing: TASK_PROGRESS_WRITE_INTERVAL_MS holds batch polls' progress too.
              timing: readTaskStepTiming(env),
            });
            return new MusicBatchPoller({ prisma, processor, adapters, connectChannel, clock, logger });
          },
          inject: [
            PRISMA_CLIENT,
            PG_POOL,
            WORKER_LOGGER,
            WORKER_CONFIG,
            MUSIC_UPSTREAM_HTTP,
            TaskMetrics,
            SettlementMetrics,
            WORKER_ENVIRONMENT,
            TASK_CHANGE_ANNOUNCER,
          ],
        },
        MusicPollConsumer,
      ],
    };
  }
}
