import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HoldReaper } from '@gateway/billing';
import type { GatewayLogger } from '@gateway/observability';
import { QUEUE_NAMES, WORKER_LOGGER } from '@gateway/tasks';
import { QueueRuntime } from '@gateway/tasks/worker';

export const HOLD_REAPER_SCHEDULER_ID = 'reap-expired-holds';
const REAP_INTERVAL_MS = 30_000;
const REAP_BATCH = 500;

/**
 * Every 30 s, settles holds whose owner never did (the process died mid-request) and closes leases
 * whose owner stopped renewing them. Each worker-text instance upserts the same job scheduler, so
 * however many run, one reaping job is due per interval; each upserts it again after a Redis
 * reconnection (a Redis restarted without its data lost it).
 */
@Injectable()
export class HoldReaperProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly queues: QueueRuntime,
    private readonly reaper: HoldReaper,
    @Inject(WORKER_LOGGER) private readonly logger: GatewayLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queues.keepJobScheduler(QUEUE_NAMES.textMaintenance, HOLD_REAPER_SCHEDULER_ID, {
      everyMs: REAP_INTERVAL_MS,
      opts: { removeOnComplete: true, removeOnFail: 50 },
    });
    this.queues.consume<unknown, number>(QUEUE_NAMES.textMaintenance, () => this.reapExpiredHolds(), {
      concurrency: 1,
    });
  }

  /** Returns how many holds this run settled; lapsed leases are closed too. */
  async reapExpiredHolds(): Promise<number> {
    const reaped = await this.reaper.reapExpired(REAP_BATCH);
    if (reaped > 0) this.logger.info({ reaped }, 'settled expired holds');
    const closedLeases = await this.reaper.closeExpiredLeases(REAP_BATCH);
    if (closedLeases > 0) this.logger.info({ closedLeases }, 'closed lapsed leases');
    return reaped;
  }
}
