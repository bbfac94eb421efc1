import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { SettlementService, type SettlementInput } from '@gateway/billing';
import type { Environment } from '@gateway/config';
import { errorMessageOf } from '@gateway/observability';
import {
  fromSettlementJob,
  QUEUE_NAMES,
  QueueRuntime,
  readWorkerConcurrency,
  WORKER_ENVIRONMENT,
  type TextSettlementJob,
} from '@gateway/tasks';
import { UnrecoverableError, type Job } from 'bullmq';

const DEFAULT_CONCURRENCY = 16;

/**
 * Applies settlements the gateway handed over. A failed database write throws, so BullMQ retries the
 * job with backoff; the settlement itself applies at most once, so a retry after a lost reply is safe.
 */
@Injectable()
export class TextSettlementProcessor implements OnApplicationBootstrap {
  private readonly concurrency: number;

  constructor(
    private readonly queues: QueueRuntime,
    private readonly settlements: SettlementService,
    @Inject(WORKER_ENVIRONMENT) env: Environment,
  ) {
    this.concurrency = readWorkerConcurrency(env, 'TEXT_WORKER_CONCURRENCY', DEFAULT_CONCURRENCY);
  }

  onApplicationBootstrap(): void {
    this.queues.consume<TextSettlementJob, boolean>(QUEUE_NAMES.textSettlement, (job) => this.process(job), {
      concurrency: this.concurrency,
    });
  }

  /** Returns whether this job applied the settlement (false: an earlier one had). */
  async process(job: Job<TextSettlementJob>): Promise<boolean> {
    const { appliedRequestIds } = await this.settlements.settleMany([settlementOf(job)]);
    return appliedRequestIds.length > 0;
  }
}

/** A malformed payload fails at once: retrying it cannot help. */
function settlementOf(job: Job<TextSettlementJob>): SettlementInput {
  try {
    return fromSettlementJob(job.data);
  } catch (error) {
    throw new UnrecoverableError(errorMessageOf(error));
  }
}
