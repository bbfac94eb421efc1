import type { PrismaClient } from '@gateway/db';

/** The sums that must agree for one account, and whether they do. */
export interface LedgerAuditResult {
  accountId: string;
  balance: bigint;
  held: bigint;
  credits: bigint;
  captures: bigint;
  /** Σ of `hold` ledger rows: every hold ever taken. */
  holdsTaken: bigint;
  releases: bigint;
  /** Σ of open holds in the holds table. */
  openHolds: bigint;
  /** Σ over settled holds of min(capture, hold) + release: the part of each hold its settlement closed. */
  settledHolds: bigint;
  /** balance = credits − captures, and held = openHolds = holdsTaken − settledHolds. */
  balanced: boolean;
}

interface AuditRow {
  balance: bigint;
  held: bigint;
  credits: bigint;
  captures: bigint;
  holds_taken: bigint;
  releases: bigint;
  open_holds: bigint;
  settled_holds: bigint;
}

/** Recomputes an account's balance and held amount from the ledger and the holds. */
export class LedgerAudit {
  constructor(private readonly prisma: Pick<PrismaClient, '$queryRaw'>) {}

  async auditAccount(accountId: string): Promise<LedgerAuditResult> {
    const [row] = await this.prisma.$queryRaw<AuditRow[]>`
      WITH ledger AS (
        SELECT coalesce(sum(amount) FILTER (WHERE kind = 'credit'), 0)::int8 AS credits,
               coalesce(sum(amount) FILTER (WHERE kind = 'capture'), 0)::int8 AS captures,
               coalesce(sum(amount) FILTER (WHERE kind = 'hold'), 0)::int8 AS holds_taken,
               coalesce(sum(amount) FILTER (WHERE kind = 'release'), 0)::int8 AS releases
          FROM ledger_entries
         WHERE account_id = ${accountId}
      ), settled AS (
        SELECT coalesce(sum(least(coalesce(c.amount, 0), h.amount) + coalesce(r.amount, 0)), 0)::int8
                 AS settled_holds
          FROM ledger_entries h
          JOIN holds ho ON ho.request_id = h.request_id AND ho.status = 'settled'
          LEFT JOIN ledger_entries c ON c.idempotency_key = 'capture:' || h.request_id
          LEFT JOIN ledger_entries r ON r.idempotency_key = 'release:' || h.request_id
         WHERE h.account_id = ${accountId} AND h.kind = 'hold'
      )
      SELECT a.balance, a.held, l.credits, l.captures, l.holds_taken, l.releases, s.settled_holds,
             (SELECT coalesce(sum(amount), 0)::int8 FROM holds
               WHERE account_id = a.id AND status = 'open') AS open_holds
        FROM accounts a, ledger l, settled s
       WHERE a.id = ${accountId}`;
    if (!row) throw new Error(`no account ${accountId} to audit`);
    return {
      accountId,
      balance: row.balance,
      held: row.held,
      credits: row.credits,
      captures: row.captures,
      holdsTaken: row.holds_taken,
      releases: row.releases,
      openHolds: row.open_holds,
      settledHolds: row.settled_holds,
      balanced:
        row.balance === row.credits - row.captures &&
        row.held === row.open_holds &&
        row.held === row.holds_taken - row.settled_holds,
    };
  }
}
