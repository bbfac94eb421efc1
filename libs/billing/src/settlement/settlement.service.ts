import type { PrismaClient } from '@gateway/db';
import type { Pool } from 'pg';
import type { RequestLogInput } from './request-log.types';
import { settleHoldsStatement } from './settle-holds.statement';
import type { SettleManyResult, SettlementInput } from './settlement.types';

/** Ends holds: capture of the actual cost, release of the rest, the request log; each exactly once. */
export class SettlementService {
  constructor(
    private readonly pool: Pool,
    private readonly prisma: Pick<PrismaClient, 'requestLog'>,
  ) {}

  /** Settles one hold; `applied` is false when it was settled before, and nothing changed then. */
  async settle(settlement: SettlementInput): Promise<{ applied: boolean }> {
    const { appliedRequestIds } = await this.settleMany([settlement]);
    return { applied: appliedRequestIds.length > 0 };
  }

  /**
   * Settles a batch in one transaction (see settle-holds.statement.ts). A request id given twice is
   * settled by its first entry.
   */
  async settleMany(settlements: readonly SettlementInput[]): Promise<SettleManyResult> {
    const firstPerRequest = new Map<string, SettlementInput>();
    for (const settlement of settlements) {
      if (settlement.captureMicros < 0n) {
        throw new RangeError(`capture of ${settlement.requestId} must not be negative`);
      }
      if (!firstPerRequest.has(settlement.requestId)) firstPerRequest.set(settlement.requestId, settlement);
    }
    if (firstPerRequest.size === 0) return { appliedRequestIds: [] };
    const { rows } = await this.pool.query<{ request_id: string }>({
      ...settleHoldsStatement,
      values: [JSON.stringify([...firstPerRequest.values()].map(toStatementItem))],
    });
    return { appliedRequestIds: rows.map((row) => row.request_id) };
  }

  /** Logs a request refused before any hold; a second call for the same request id writes nothing. */
  async recordWithoutHold(log: RequestLogInput): Promise<{ recorded: boolean }> {
    const { count } = await this.prisma.requestLog.createMany({ data: [log], skipDuplicates: true });
    return { recorded: count > 0 };
  }
}

/** JSON has no bigint: micros travel as decimal strings, which Postgres reads back as int8 exactly. */
function toStatementItem({ requestId, captureMicros, log }: SettlementInput) {
  return { ...log, requestId, captureMicros: captureMicros.toString() };
}
