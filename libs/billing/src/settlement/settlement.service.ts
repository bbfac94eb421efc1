import type { Pool } from 'pg';
import type { RequestLogInput, SettlementLogInput } from './request-log.types';
import { isRefusedByDatabase } from './database-refusal.util';
import { recordRequestLogsStatement } from './record-request-logs.statement';
import { settleHoldsStatement, settleLeasedHoldsStatement } from './settle-holds.statement';
import type {
  RecordLogsResult,
  RefusedLog,
  RowHoldSettlement,
  SettleManyResult,
  SettlementInput,
  SettlementOverage,
} from './settlement.types';
import { toStorableCount, toStorableMicros, toStorableText } from './storable-value.util';
import type { LeasedHold } from '../hold/hold.types';
import type { SettlementObserver } from './settlement-observer';

interface SettledRow {
  request_id: string;
  overage_micros: string;
}

/** Ends holds: capture of the actual cost, release of the rest, the request log; each exactly once. */
export class SettlementService {
  /** `observer` (the metrics) hears of every settlement applied here; none in tests that do not ask. */
  constructor(
    private readonly pool: Pool,
    private readonly observer?: SettlementObserver,
  ) {}

  /** Settles one hold; `applied` is false when it was settled before, and nothing changed then. */
  async settle(settlement: SettlementInput): Promise<{ applied: boolean }> {
    const { appliedRequestIds } = await this.settleMany([settlement]);
    return { applied: appliedRequestIds.length > 0 };
  }

  /** Settles holds written as rows only: the type refuses a leased hold (see RowHoldSettlement). */
  settleRowHolds(settlements: readonly RowHoldSettlement[]): Promise<SettleManyResult> {
    return this.settleMany(settlements);
  }

  /**
   * Settles a batch: open holds in one transaction (see settle-holds.statement.ts), holds taken from
   * leases in another. A request id given twice is settled by its first entry. When one of the two
   * fails the whole batch may be settled again: what the other one applied is skipped then.
   */
  async settleMany(settlements: readonly SettlementInput[]): Promise<SettleManyResult> {
    const firstPerRequest = new Map<string, SettlementInput>();
    for (const settlement of settlements) {
      if (settlement.captureMicros < 0n) {
        throw new RangeError(`capture of ${settlement.requestId} must not be negative`);
      }
      if (!firstPerRequest.has(settlement.requestId)) firstPerRequest.set(settlement.requestId, settlement);
    }
    const openHolds: unknown[] = [];
    const leasedHolds: unknown[] = [];
    for (const settlement of firstPerRequest.values()) {
      if (settlement.lease) leasedHolds.push(toLeasedStatementItem(settlement, settlement.lease));
      else openHolds.push(toStatementItem(settlement));
    }
    const settled = await Promise.all([
      this.runOverItems<SettledRow>(settleHoldsStatement, openHolds),
      this.runOverItems<SettledRow>(settleLeasedHoldsStatement, leasedHolds),
    ]);
    const rows = settled.flat();
    const overages: SettlementOverage[] = [];
    for (const row of rows) {
      if (row.overage_micros !== '0') {
        overages.push({ requestId: row.request_id, micros: BigInt(row.overage_micros) });
      }
    }
    if (this.observer) this.tellObserver(this.observer, rows, firstPerRequest);
    return { appliedRequestIds: rows.map((row) => row.request_id), overages };
  }

  /**
   * Only once both statements have committed: a settlement rolled back is never counted. A batch that
   * fails half-way is retried, and what its first try applied is then skipped and goes uncounted: a
   * rare undercount, never a double count.
   */
  private tellObserver(
    observer: SettlementObserver,
    rows: readonly SettledRow[],
    settlements: ReadonlyMap<string, SettlementInput>,
  ): void {
    for (const row of rows) {
      const settlement = settlements.get(row.request_id);
      if (!settlement) continue;
      const { log, lease, captureMicros } = settlement;
      observer.settled({
        model: lease?.model ?? log.model,
        inputTokens: log.inputTokens,
        outputTokens: log.outputTokens,
        capturedMicros: captureMicros - BigInt(row.overage_micros),
        ttfbMs: log.ttfbMs,
      });
    }
  }

  /**
   * Logs requests refused before any hold, in one statement; a request id logged before writes nothing.
   * When Postgres refuses a value of the batch, each row is written on its own, so only a row it still
   * refuses is lost (returned in `refused`, for the caller to report); other failures throw.
   */
  async recordWithoutHold(logs: readonly RequestLogInput[]): Promise<RecordLogsResult> {
    try {
      return { recordedRequestIds: await this.recordLogs(logs), refused: [] };
    } catch (error) {
      if (logs.length < 2 || !isRefusedByDatabase(error)) throw error;
    }
    const recordedRequestIds: string[] = [];
    const refused: RefusedLog[] = [];
    // One at a time: this runs only after a refused batch, and must not take the whole pool.
    for (const log of logs) {
      try {
        recordedRequestIds.push(...(await this.recordLogs([log])));
      } catch (error) {
        if (!isRefusedByDatabase(error)) throw error;
        refused.push({ log, error });
      }
    }
    return { recordedRequestIds, refused };
  }

  private async recordLogs(logs: readonly RequestLogInput[]): Promise<string[]> {
    const items = logs.map((log) =>
      toStatementItem({ requestId: log.requestId, captureMicros: log.costMicros, log }),
    );
    const rows = await this.runOverItems<{ request_id: string }>(recordRequestLogsStatement, items);
    return rows.map((row) => row.request_id);
  }

  /** Runs a statement over a JSON array of items; returns the rows it reports. */
  private async runOverItems<Row extends { request_id: string }>(
    statement: { name: string; text: string },
    items: unknown[],
  ): Promise<Row[]> {
    if (items.length === 0) return [];
    const { rows } = await this.pool.query<Row>({ ...statement, values: [JSON.stringify(items)] });
    return rows;
  }
}

/** Every log field, the request id and the capture: STATEMENT_ITEM_COLUMNS of settle-holds.statement.ts. */
type StatementItem = Record<keyof SettlementLogInput | 'requestId' | 'captureMicros', unknown>;
/** The lease's record of the hold, which settle_leased_holds reads beside the statement item's. */
type LeaseColumns = Record<Exclude<keyof LeasedHold, 'amount'> | 'holdMicros', unknown>;
type LeasedStatementItem = StatementItem & LeaseColumns;

/**
 * The statement items are written field by field: they are built for every request, and copying the
 * log with rest destructuring and object spreads cost several times as much as this. Their types name
 * every column, so a field the log gains cannot be left out. Every value is made storable here (see
 * storable-value.util.ts): a value Postgres would refuse must not fail the batch it travels in. JSON has
 * no bigint: micros travel as decimal strings, which Postgres reads back as int8 exactly.
 */
function toStatementItem({ requestId, captureMicros, log }: SettlementInput): StatementItem {
  return {
    requestId: toStorableText(requestId),
    captureMicros: toStorableMicros(captureMicros).toString(),
    keyId: toStorableText(log.keyId),
    accountId: toStorableText(log.accountId),
    model: toStorableText(log.model),
    channelId: toStorableText(log.channelId),
    route: toStorableText(log.route),
    httpStatus: toStorableCount(log.httpStatus),
    endReason: toStorableText(log.endReason),
    latencyMs: toStorableCount(log.latencyMs),
    ttfbMs: toStorableCount(log.ttfbMs),
    inputTokens: toStorableCount(log.inputTokens),
    outputTokens: toStorableCount(log.outputTokens),
    // Absent on text requests: undefined is left out of the JSON, and the statements store 0.
    imageCount: toStorableCount(log.imageCount),
    mediaSeconds: toStorableCount(log.mediaSeconds),
    attempts: toStorableCount(log.attempts),
  };
}

/** The lease's record of the hold names the key, account, model and route; it wins over the log's. */
function toLeasedStatementItem(settlement: SettlementInput, hold: LeasedHold): LeasedStatementItem {
  const leaseColumns = {
    keyId: toStorableText(hold.keyId),
    accountId: toStorableText(hold.accountId),
    model: toStorableText(hold.model),
    route: toStorableText(hold.route),
    leaseId: toStorableText(hold.leaseId),
    holdMicros: toStorableMicros(hold.amount).toString(),
  } satisfies LeaseColumns;
  return Object.assign(toStatementItem(settlement), leaseColumns);
}
