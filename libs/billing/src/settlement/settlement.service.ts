import type { Pool } from 'pg';
import type { RequestLogInput, SettlementLogInput } from './request-log.types';
import { recordRequestLogsStatement } from './record-request-logs.statement';
import { settleHoldsStatement, settleLeasedHoldsStatement } from './settle-holds.statement';
import type { SettleManyResult, SettlementInput } from './settlement.types';
import type { LeasedHold } from '../hold/hold.types';

/** Ends holds: capture of the actual cost, release of the rest, the request log; each exactly once. */
export class SettlementService {
  constructor(private readonly pool: Pool) {}

  /** Settles one hold; `applied` is false when it was settled before, and nothing changed then. */
  async settle(settlement: SettlementInput): Promise<{ applied: boolean }> {
    const { appliedRequestIds } = await this.settleMany([settlement]);
    return { applied: appliedRequestIds.length > 0 };
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
    const applied = await Promise.all([
      this.runOverItems(settleHoldsStatement, openHolds),
      this.runOverItems(settleLeasedHoldsStatement, leasedHolds),
    ]);
    return { appliedRequestIds: applied.flat() };
  }

  /**
   * Logs requests refused before any hold, in one statement; a request id logged before writes nothing.
   * Returns the request ids that were logged now.
   */
  recordWithoutHold(logs: readonly RequestLogInput[]): Promise<string[]> {
    const items = logs.map((log) =>
      toStatementItem({ requestId: log.requestId, captureMicros: log.costMicros, log }),
    );
    return this.runOverItems(recordRequestLogsStatement, items);
  }

  /** Runs a statement over a JSON array of items; returns the request ids it reports as done. */
  private async runOverItems(statement: { name: string; text: string }, items: unknown[]): Promise<string[]> {
    if (items.length === 0) return [];
    const { rows } = await this.pool.query<{ request_id: string }>({
      ...statement,
      values: [JSON.stringify(items)],
    });
    return rows.map((row) => row.request_id);
  }
}

/** Every log field, the request id and the capture: STATEMENT_ITEM_COLUMNS of settle-holds.statement.ts. */
type StatementItem = Record<keyof SettlementLogInput | 'requestId' | 'captureMicros', unknown>;
/** The lease's record of the hold, which settle_leased_holds reads beside the statement item's. */
type LeaseColumns = Record<Exclude<keyof LeasedHold, 'amount'>, unknown>;
type LeasedStatementItem = StatementItem & LeaseColumns;

/**
 * The statement items are written field by field: they are built for every request, and copying the
 * log with rest destructuring and object spreads cost several times as much as this. Their types name
 * every column, so a field the log gains cannot be left out. JSON has no bigint: micros travel as
 * decimal strings, which Postgres reads back as int8 exactly.
 */
function toStatementItem({ requestId, captureMicros, log }: SettlementInput): StatementItem {
  return {
    requestId,
    captureMicros: captureMicros.toString(),
    keyId: log.keyId,
    accountId: log.accountId,
    model: log.model,
    channelId: log.channelId,
    route: log.route,
    httpStatus: log.httpStatus,
    endReason: log.endReason,
    latencyMs: log.latencyMs,
    ttfbMs: log.ttfbMs,
    inputTokens: log.inputTokens,
    outputTokens: log.outputTokens,
    attempts: log.attempts,
  };
}

/** The lease's record of the hold names the key, account, model and route; it wins over the log's. */
function toLeasedStatementItem(settlement: SettlementInput, hold: LeasedHold): LeasedStatementItem {
  const leaseColumns = {
    keyId: hold.keyId,
    accountId: hold.accountId,
    model: hold.model,
    route: hold.route,
    leaseId: hold.leaseId,
  } satisfies LeaseColumns;
  return Object.assign(toStatementItem(settlement), leaseColumns);
}
