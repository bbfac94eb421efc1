import type { SettlementLogInput, SettlementService } from '@gateway/billing';
import type { PrismaClient, Task } from '@gateway/db';
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
 */
export class TaskSettlementService {
  constructor(
    private readonly settlements: Pick<SettlementService, 'settleMany'>,
    private readonly prisma: Pick<PrismaClient, 'hold'>,
  ) {}

  async settle(task: Task, outcome: TaskOutcome): Promise<void> {
    if (task.holdRequestId === null) return;
    const hold = await this.findHold(task.holdRequestId);
    if (!hold) return;
    const tokens = outcome.state === 'completed' ? outcome.usage?.tokens : undefined;
    await this.settlements.settleMany([
      {
        requestId: task.holdRequestId,
        captureMicros: outcome.state === 'completed' ? hold.amount : 0n,
        log: {
          ...this.logOf(hold, outcome.state === 'completed' ? 'completed' : 'upstream_error'),
          keyId: task.keyId,
          accountId: task.accountId,
          model: task.model,
          channelId: task.channelId ?? undefined,
          inputTokens: tokens?.inputTokens ?? 0,
          outputTokens: tokens?.outputTokens ?? 0,
        },
      },
    ]);
  }

  /** Releases a hold in full (key, account and model of the log default to the hold's). */
  async releaseHold(holdRequestId: string): Promise<void> {
    const hold = await this.findHold(holdRequestId);
    if (!hold) return;
    await this.settlements.settleMany([
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
