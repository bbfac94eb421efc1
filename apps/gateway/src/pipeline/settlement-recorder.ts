import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import {
  HoldLeases,
  SettlementService,
  type RefusedLog,
  type RequestLogInput,
  type SettlementInput,
  type SettlementOverage,
} from '@gateway/billing';
import { tracing, type GatewayMetrics } from '@gateway/observability';
import { TEXT_SETTLEMENT_JOB_NAME, textSettlementJobOptions, toSettlementJob } from '@gateway/tasks/queues';
import type { LazyQueue } from '../platform/infrastructure/lazy-queue';
import { LOGGER, METRICS, SETTLEMENT_QUEUE } from '../platform/infrastructure/tokens';
import { SettlementSpans, type SettlementBatchOutcome } from './settlement-spans';

const MAX_BATCH = 256;
// perf-machinery: settlement-batches (docs/performance-machinery.md)
/**
 * Settlements gather for this long before one transaction writes them. A settlement updates the
 * account row that the next request's hold also needs; writing one per request would make holds wait
 * on it. Each write also costs the gateway a wake-up and a statement's client work: 50 ms instead of
 * 10 gathers two to five times as many per write, for 9–22 % less gateway CPU per request at one
 * connection (docs/performance-analysis.md, "Settlement writes per request"). Clients never wait for
 * this: it runs after their answer, and `drain` (tests, shutdown) writes at once.
 */
const FLUSH_DELAY_MS = 50;

/**
 * Settlements and request logs are written after the response, off the hot path, batched: while one
 * write is in flight the next ones gather, so under load one transaction settles many requests. A
 * batch the database refuses is handed to worker-text through a durable queue (its settlement job
 * settles any hold, leased or row, of any modality); if even that fails, the holds stay open and the
 * hold reaper of worker-text settles them when they expire. So a hold is never left behind and never
 * settled twice (settlement is idempotent per request id). The worker settles each handed-off request
 * alone, so a row the database refuses cannot take its batch-mates with it there either.
 */
@Injectable()
export class SettlementRecorder implements BeforeApplicationShutdown {
  private settlements: SettlementInput[] = [];
  private logsWithoutHold: RequestLogInput[] = [];
  private flushing: Promise<void> | undefined;
  /** Ends the wait of the flush that is gathering, if one is (see drain). */
  private flushNow: (() => void) | undefined;
  /** Each settled request's span while tracing is on (see SettlementSpans for why per request). */
  private readonly spans = new SettlementSpans();

  constructor(
    private readonly settlementService: SettlementService,
    private readonly leases: HoldLeases,
    @Inject(SETTLEMENT_QUEUE) private readonly queue: LazyQueue,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(METRICS) private readonly metrics: GatewayMetrics,
  ) {}

  settle(item: SettlementInput): void {
    this.settlements.push(item);
    if (tracing.enabled) this.spans.begin(item);
    this.scheduleFlush();
  }

  /** A request that was refused before any hold still gets its log row. */
  logWithoutHold(log: RequestLogInput): void {
    this.logsWithoutHold.push(log);
    this.scheduleFlush();
  }

  /**
   * Writes what is gathering without waiting out the delay; resolves once everything recorded so far
   * is written or handed off.
   */
  async drain(): Promise<void> {
    while (this.flushing) {
      this.flushNow?.();
      await this.flushing;
    }
  }

  /** The last settlements are written before the leases they used are closed. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.drain();
    await this.leases.stop();
  }

  private scheduleFlush(): void {
    this.flushing ??= new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, FLUSH_DELAY_MS);
      this.flushNow = () => {
        clearTimeout(timer);
        resolve();
      };
    })
      .then(() => {
        this.flushNow = undefined;
        return this.flush();
      })
      .finally(() => {
        this.flushing = undefined;
      });
  }

  private async flush(): Promise<void> {
    while (this.settlements.length > 0 || this.logsWithoutHold.length > 0) {
      const batch = this.settlements.splice(0, MAX_BATCH);
      const logs = this.logsWithoutHold.splice(0, MAX_BATCH);
      if (batch.length > 0) await this.writeSettlements(batch);
      if (logs.length > 0) await this.writeLogs(logs);
    }
  }

  private async writeSettlements(batch: SettlementInput[]): Promise<void> {
    let outcome: SettlementBatchOutcome = 'written';
    try {
      const { overages } = await this.settlementService.settleMany(batch);
      if (overages.length > 0) this.reportOverages(overages);
    } catch (error) {
      this.logger.warn(
        { err: error, count: batch.length },
        'inline settlement failed; handing off to worker-text',
      );
      outcome = await this.handOff(batch);
    }
    this.spans.end(batch, outcome);
  }

  private async handOff(batch: SettlementInput[]): Promise<SettlementBatchOutcome> {
    try {
      const queue = await this.queue.queue();
      await queue.addBulk(
        batch.map((item) => ({
          name: TEXT_SETTLEMENT_JOB_NAME,
          data: toSettlementJob(item),
          opts: textSettlementJobOptions(item.requestId),
        })),
      );
      return 'handed_off';
    } catch (error) {
      this.logger.error(
        { err: error, requestIds: batch.map((item) => item.requestId) },
        'settlement hand-off failed; the hold reaper will settle these holds when they expire',
      );
      return 'hand_off_failed';
    }
  }

  /** Usage the accounts could not pay was not captured: the operator absorbs it, and should see it. */
  private reportOverages(overages: SettlementOverage[]): void {
    let micros = 0n;
    for (const overage of overages) micros += overage.micros;
    this.metrics.uncapturedMicros.inc(Number(micros));
    this.logger.warn(
      { overages: overages.map((overage) => ({ ...overage, micros: overage.micros.toString() })) },
      'usage beyond what the account could pay was not captured',
    );
  }

  private async writeLogs(logs: RequestLogInput[]): Promise<void> {
    try {
      const { refused } = await this.settlementService.recordWithoutHold(logs);
      for (const row of refused) this.reportRefusedLog(row);
    } catch (error) {
      this.logger.error(
        { err: error, requestIds: logs.map((log) => log.requestId) },
        'request log write failed',
      );
    }
  }

  /** The row the database refused even alone is dropped; its fields stay in the process log. */
  private reportRefusedLog({ log, error }: RefusedLog): void {
    this.logger.error(
      { err: error, requestLog: { ...log, costMicros: log.costMicros.toString() } },
      'request log refused by the database; dropped',
    );
  }
}
