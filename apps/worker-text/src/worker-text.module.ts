import { Module, type DynamicModule } from '@nestjs/common';
import { HoldReaper, SettlementService } from '@gateway/billing';
import type { Environment } from '@gateway/config';
import { SettlementMetrics } from '@gateway/observability';
import { PG_POOL, TaskRetentionSweep } from '@gateway/tasks';
import { WorkerRuntimeModule } from '@gateway/tasks/worker';
import type { Pool } from 'pg';
import { HoldReaperProcessor } from './hold-reaper.processor';
import { RequestLogRollupProcessor } from './request-log-rollup.processor';
import { TaskRetentionProcessor } from './task-retention.processor';
import { TextSettlementProcessor } from './text-settlement.processor';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';

export interface WorkerTextOptions {
  /** The environment to configure from; the process environment when absent. */
  env?: Environment;
}

/**
 * Background work of text calls (settlements handed over by the gateway), the hold reaper, the
 * retention sweep of finished task rows, the delivery of webhook events, and the rollups of the
 * request logs that the admin figures read.
 */
@Module({})
export class WorkerTextModule {
  static forRoot(options: WorkerTextOptions = {}): DynamicModule {
    return {
      module: WorkerTextModule,
      imports: [WorkerRuntimeModule.forRoot({ serviceName: 'worker-text', env: options.env })],
      providers: [
        {
          provide: SettlementService,
          useFactory: (pool: Pool, metrics: SettlementMetrics) => new SettlementService(pool, metrics),
          inject: [PG_POOL, SettlementMetrics],
        },
        {
          provide: HoldReaper,
          useFactory: (pool: Pool, settlements: SettlementService) => new HoldReaper(pool, settlements),
          inject: [PG_POOL, SettlementService],
        },
        {
          provide: TaskRetentionSweep,
          useFactory: (pool: Pool) => new TaskRetentionSweep(pool),
          inject: [PG_POOL],
        },
        TextSettlementProcessor,
        HoldReaperProcessor,
        TaskRetentionProcessor,
        WebhookDeliveryProcessor,
        RequestLogRollupProcessor,
      ],
    };
  }
}
