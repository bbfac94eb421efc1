import {
  textCostMicros,
  type GovernanceReservations,
  type RowHoldSettlement,
  type SettlementLogInput,
  type SettlementService,
} from '@gateway/billing';
import { type BatchOutcomes, StatementBatcher, type PrismaClient, type Task } from '@gateway/db';
import type { TaskCompleted, TokenUsage } from '@gateway/providers-core';
import { imageTaskPriceOf, videoTaskPriceOf } from './task-price-snapshot';
import {
  TASK_ABANDONED_END_REASON,
  TASK_CANCELLED_END_REASON,
  type HoldReleaseReason,
} from './task-end-reason';
import { producedByTask } from './task-produced.util';
import type { SettledOutcome } from './task-step.types';

const MAX_LATENCY_MS = 2_147_483_647;

/**
 * A task the upstream reports cancelled ends `cancelled` (TaskFailed.cancelled), as when its client's
 * cancel wins (releaseHold): its log row says the same whichever of the two wrote it.
 */
function endReasonOf(task: Task, outcome: SettledOutcome): string {
  if (outcome.state === 'completed') return 'completed';
  return task.status === 'cancelled' ? TASK_CANCELLED_END_REASON : 'upstream_error';
}

interface HoldOfTask {
  requestId: string;
  route: string;
  amount: bigint;
  createdAt: Date;
}

/** One task's settlement as the batch of settlements it goes in carries it. */
interface TaskToSettle {
  task: Task;
  outcome: SettledOutcome;
}

/**
 * Most settlements in one batch, and batches in flight at once: the settlements that arrive while one
 * batch runs (tasks ending upstream together) go together in the next.
 */
const BATCH_LIMITS = { maxBatch: 128, maxInFlight: 1 };

/**
 * Ends the hold of an asynchronous task through the billing settlement, which applies each hold's
 * settlement exactly once. A completed task captures its hold: for asynchronous work the hold is
 * the price of what the request asked for (seconds, size, count), computed when the task was created.
 * An image task (its price snapshot says so) captures the images it returned instead, at the price it
 * was admitted at: the upstream may make more or fewer than the hold assumed. A video task captures
 * likewise the seconds it produced (whole seconds, rounded up) at its admitted price per second, or,
 * where its wire bills tokens, the tokens its upstream reported at its admitted token prices.
 */
export class TaskSettlementService {
  private readonly batcher: StatementBatcher<TaskToSettle, void>;

  constructor(
    // Row holds only: a task's hold must outlive the process that took it, which a leased one does not.
    private readonly settlements: Pick<SettlementService, 'settleRowHolds'>,
    private readonly prisma: Pick<PrismaClient, 'hold'>,
    /**
     * The task's cost (cost_micros) and its share of its key's and account's budgets and outstanding-
     * task limits: recorded right after its hold is settled (from the hold's request log), so a re-run
     * after a crash between the two records them then, exactly once (docs/governance.md).
     */
    private readonly governance?: Pick<GovernanceReservations, 'taskSettled' | 'tasksSettled'>,
  ) {
    this.batcher = new StatementBatcher((batch) => this.settleBatch(batch), BATCH_LIMITS);
  }

  // perf-machinery: task-settlement-batches (docs/performance-machinery.md)
  /**
   * Settles the task's hold and records its settlement for governance. Settlements that arrive
   * together share their statements: one read of the holds, one settlement statement, one for
   * governance, each a transaction (rather than three per task). Each step is applied once per hold
   * or task whatever batch it runs in, so a batch that fails half-way is settled again by the re-run
   * of each task's step (settleFinished), or by the sweep of finished tasks with an open hold.
   */
  settle(task: Task, outcome: SettledOutcome): Promise<void> {
    return this.batcher.call({ task, outcome });
  }

  private async settleBatch(batch: TaskToSettle[]): Promise<BatchOutcomes<void>> {
    try {
      await this.settleTogether(batch);
      return batch.map(() => ({ status: 'fulfilled', value: undefined }));
    } catch (error) {
      if (batch.length === 1) throw error;
    }
    // One at a time, so that a settlement Postgres refuses fails alone: this runs only after a failed batch.
    const outcomes: BatchOutcomes<void> = [];
    for (const item of batch) {
      outcomes.push(
        await this.settleTogether([item]).then(
          () => ({ status: 'fulfilled', value: undefined }) as const,
          (reason: unknown) => ({ status: 'rejected', reason }) as const,
        ),
      );
    }
    return outcomes;
  }

  private async settleTogether(batch: readonly TaskToSettle[]): Promise<void> {
    const holdRequestIds = batch.flatMap(({ task }) =>
      task.holdRequestId === null ? [] : [task.holdRequestId],
    );
    const holds = await this.findHolds(holdRequestIds);
    const settlements: RowHoldSettlement[] = [];
    for (const { task, outcome } of batch) {
      const hold = task.holdRequestId === null ? undefined : holds.get(task.holdRequestId);
      if (hold) settlements.push(this.settlementOf(task, hold, outcome));
    }
    if (settlements.length > 0) await this.settlements.settleRowHolds(settlements);
    await this.governance?.tasksSettled(
      batch.map(({ task }) => ({ taskId: task.id, holdRequestId: task.holdRequestId })),
    );
  }

  private settlementOf(task: Task, hold: HoldOfTask, outcome: SettledOutcome): RowHoldSettlement {
    const produced = outcome.state === 'completed' ? producedOf(task, outcome) : {};
    const tokens = produced.tokens;
    const imageCount = imageTaskPriceOf(task.priceSnapshot) ? (produced.imageCount ?? 0) : 0;
    const mediaSeconds = produced.mediaSeconds ?? 0;
    const captureMicros =
      outcome.state === 'completed' ? captureOf(task, { imageCount, mediaSeconds, tokens }, hold.amount) : 0n;
    return {
      requestId: hold.requestId,
      captureMicros,
      log: {
        ...this.logOf(hold, endReasonOf(task, outcome)),
        keyId: task.keyId,
        accountId: task.accountId,
        model: task.model,
        channelId: task.channelId ?? undefined,
        inputTokens: tokens?.inputTokens ?? 0,
        outputTokens: tokens?.outputTokens ?? 0,
        imageCount,
        mediaSeconds,
      },
    };
  }

  /**
   * Releases a task's hold in full (key, account and model of the log default to the hold's), its log
   * row ending `reason`. Every task's hold request id is the task's id (TaskCreation), so it names the
   * task too.
   */
  async releaseHold(
    holdRequestId: string,
    reason: HoldReleaseReason = TASK_ABANDONED_END_REASON,
  ): Promise<void> {
    const hold = await this.findHold(holdRequestId);
    if (hold) {
      await this.settlements.settleRowHolds([
        { requestId: holdRequestId, captureMicros: 0n, log: this.logOf(hold, reason) },
      ]);
    }
    await this.governance?.taskSettled(holdRequestId, holdRequestId);
  }

  private findHold(requestId: string): Promise<HoldOfTask | null> {
    return this.prisma.hold.findUnique({
      where: { requestId },
      select: { requestId: true, route: true, amount: true, createdAt: true },
    });
  }

  private async findHolds(requestIds: readonly string[]): Promise<Map<string, HoldOfTask>> {
    if (requestIds.length === 0) return new Map();
    const holds = await this.prisma.hold.findMany({
      where: { requestId: { in: [...new Set(requestIds)] } },
      select: { requestId: true, route: true, amount: true, createdAt: true },
    });
    return new Map(holds.map((hold) => [hold.requestId, hold]));
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
 * What a completed task costs at the price it was admitted at: its images or its seconds when its
 * price snapshot prices them; otherwise the hold, the price of what the request asked for.
 */
function captureOf(
  task: Task,
  produced: { imageCount: number; mediaSeconds: number; tokens?: TokenUsage },
  held: bigint,
): bigint {
  const imagePrice = imageTaskPriceOf(task.priceSnapshot);
  if (imagePrice) return imagePrice.perCallMicros + BigInt(produced.imageCount) * imagePrice.perImageMicros;
  const videoPrice = videoTaskPriceOf(task.priceSnapshot);
  // Without reported tokens (the upstream did not say) it captures the held estimate.
  if (videoPrice?.tokens) {
    const { inputPerMillionMicros, outputPerMillionMicros, heldTokens } = videoPrice.tokens;
    return textCostMicros(produced.tokens ?? { inputTokens: 0, outputTokens: heldTokens }, {
      perCall: videoPrice.perCallMicros,
      inputPerMillion: inputPerMillionMicros,
      outputPerMillion: outputPerMillionMicros,
    });
  }
  if (videoPrice)
    return videoPrice.perCallMicros + BigInt(produced.mediaSeconds) * videoPrice.perSecondMicros;
  return held;
}

/**
 * What a completed task produced: as stored on its row with the terminal transition, so that a
 * settlement re-run after a crash captures the same amount. A row completed before those columns
 * were written has only the outcome.
 */
function producedOf(
  task: Task,
  outcome: TaskCompleted,
): { imageCount?: number; mediaSeconds?: number; tokens?: TokenUsage } {
  const fromOutcome = producedByTask(task, outcome);
  const inputTokens = task.inputTokens ?? fromOutcome.inputTokens;
  const outputTokens = task.outputTokens ?? fromOutcome.outputTokens;
  return {
    imageCount: task.imageCount ?? fromOutcome.imageCount,
    mediaSeconds: task.mediaSeconds ?? fromOutcome.mediaSeconds,
    tokens:
      inputTokens === undefined && outputTokens === undefined
        ? undefined
        : { inputTokens: inputTokens ?? 0, outputTokens: outputTokens ?? 0 },
  };
}
