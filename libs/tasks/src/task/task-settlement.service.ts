import type { SettlementLogInput, SettlementService } from '@gateway/billing';
import type { PrismaClient, Task } from '@gateway/db';
import type { TaskCompleted } from '@gateway/providers-core';
import { imageTaskPriceOf } from './task-price-snapshot';
import type { TaskOutcome } from './task-step.types';

const MAX_LATENCY_MS = 2_147_483_647;

/** request_logs.end_reason of a task that ended without an upstream outcome (deadline, no adapter …). */
export const TASK_ABANDONED_END_REASON = 'task_failed';

interface HoldOfTask {
  route: string;
  amount: bigint;
  createdAt: Date;
}

/**
 * Ends the hold of an asynchronous task through the billing settlement, which applies each hold's
 * settlement exactly once. A completed task captures its hold: for asynchronous work the hold is
 * the price of what the request asked for (seconds, size, count), computed when the task was created.
 * An image task (its price snapshot says so) captures the images it returned instead, at the price it
 * was admitted at: the upstream may make more or fewer than the hold assumed.
 */
export class TaskSettlementService {
  constructor(
    // Row holds only: a task's hold must outlive the process that took it, which a leased one does not.
    private readonly settlements: Pick<SettlementService, 'settleRowHolds'>,
    private readonly prisma: Pick<PrismaClient, 'hold'>,
  ) {}

  async settle(task: Task, outcome: TaskOutcome): Promise<void> {
    if (task.holdRequestId === null) return;
    const hold = await this.findHold(task.holdRequestId);
    if (!hold) return;
    const tokens = outcome.state === 'completed' ? outcome.usage?.tokens : undefined;
    const imagePrice = imageTaskPriceOf(task.priceSnapshot);
    const imageCount = outcome.state === 'completed' && imagePrice ? imageCountOf(task, outcome) : 0;
    let captureMicros = 0n;
    if (outcome.state === 'completed') {
      captureMicros = imagePrice
        ? imagePrice.perCallMicros + BigInt(imageCount) * imagePrice.perImageMicros
        : hold.amount;
    }
    await this.settlements.settleRowHolds([
      {
        requestId: task.holdRequestId,
        captureMicros,
        log: {
          ...this.logOf(hold, outcome.state === 'completed' ? 'completed' : 'upstream_error'),
          keyId: task.keyId,
          accountId: task.accountId,
          model: task.model,
          channelId: task.channelId ?? undefined,
          inputTokens: tokens?.inputTokens ?? 0,
          outputTokens: tokens?.outputTokens ?? 0,
          imageCount,
        },
      },
    ]);
  }

  /** Releases a hold in full (key, account and model of the log default to the hold's). */
  async releaseHold(holdRequestId: string): Promise<void> {
    const hold = await this.findHold(holdRequestId);
    if (!hold) return;
    await this.settlements.settleRowHolds([
      { requestId: holdRequestId, captureMicros: 0n, log: this.logOf(hold, TASK_ABANDONED_END_REASON) },
    ]);
  }

  private findHold(requestId: string): Promise<HoldOfTask | null> {
    return this.prisma.hold.findUnique({
      where: { requestId },
      select: { route: true, amount: true, createdAt: true },
    });
  }

  /** The submission itself was accepted (HTTP 200); the end reason tells how the task ended. */
  private logOf(hold: HoldOfTask, endReason: string): SettlementLogInput {
    return {
      route: hold.route,
      httpStatus: 200,
      endReason,
      latencyMs: Math.min(MAX_LATENCY_MS, Math.max(0, Date.now() - hold.createdAt.getTime())),
      inputTokens: 0,
      outputTokens: 0,
      attempts: 1,
    };
  }
}

/**
 * The images a completed task returned: as stored on its row with the terminal transition, so that a
 * settlement re-run after a crash captures the same amount. A row completed before that column
 * existed has only the outcome (as reported, else its outputs).
 */
function imageCountOf(task: Task, outcome: TaskCompleted): number {
  return task.imageCount ?? outcome.usage?.images?.count ?? outcome.outputs.length;
}
