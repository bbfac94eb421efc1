import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { isRefusedByDatabase, SettlementService, type SettlementInput } from '@gateway/billing';
import type { Environment } from '@gateway/config';
import { errorMessageOf, type GatewayLogger } from '@gateway/observability';
import {
  fromSettlementJob,
  QUEUE_NAMES,
  readWorkerConcurrency,
  WORKER_ENVIRONMENT,
  WORKER_LOGGER,
  type TextSettlementJob,
} from '@gateway/tasks';
import { QueueRuntime } from '@gateway/tasks/worker';
import { UnrecoverableError, type Job } from 'bullmq';

const DEFAULT_CONCURRENCY = 16;

/**
 * Applies settlements the gateway handed over, one request per job, so a settlement the database
 * refuses never holds others back. A failed write that can pass (a lost connection, a restart, a
 * deadlock) throws, so BullMQ retries the job with backoff; the settlement itself applies at most once,
 * so a retry after a lost reply is safe. A write Postgres refused for a value it carries can never
 * succeed: the job fails at once, logged with what it would have captured. Its hold then ends as every
 * unsettled hold does, released by the reaper (or with its lease), charging nothing: the ledger stays
 * balanced and the operator, told by the log, absorbs the cost.
 */
@Injectable()
export class TextSettlementProcessor implements OnApplicationBootstrap {
  private readonly concurrency: number;

  constructor(
    private readonly queues: QueueRuntime,
    private readonly settlements: SettlementService,
    @Inject(WORKER_ENVIRONMENT) env: Environment,
    @Inject(WORKER_LOGGER) private readonly logger: GatewayLogger,
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
    const settlement = settlementOf(job);
    try {
      const { appliedRequestIds, overages } = await this.settlements.settleMany([settlement]);
      for (const overage of overages) {
        this.logger.warn(
          { requestId: overage.requestId, overageMicros: overage.micros.toString() },
          'usage beyond what the account could pay was not captured',
        );
      }
      return appliedRequestIds.length > 0;
    } catch (error) {
      if (!isRefusedByDatabase(error)) throw error;
      this.logger.error(
        {
          err: error,
          requestId: settlement.requestId,
          captureMicros: settlement.captureMicros.toString(),
          leaseId: settlement.lease?.leaseId,
        },
        'settlement refused by the database; not retried, its hold is released without a capture',
      );
      throw new UnrecoverableError(`settlement refused by the database: ${errorMessageOf(error)}`);
    }
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
