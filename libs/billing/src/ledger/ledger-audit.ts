import { Prisma, type PrismaClient } from '@gateway/db';

/** The sums that must agree for one account, and whether they do. */
export interface LedgerAuditResult {
  accountId: string;
  balance: bigint;
  held: bigint;
  overdraftLimit: bigint;
  credits: bigint;
  captures: bigint;
  /** Σ of `debit` rows: money an operator took out (POST /admin/accounts/{id}/debits). */
  debits: bigint;
  /** Σ of open holds in the holds table. */
  openHolds: bigint;
  /** Σ of what open leases still reserve. */
  openLeases: bigint;
  /**
   * Capture rows that no settlement accounts for: their request has neither a settled hold row nor
   * (for a hold taken from a lease, which has no row) a request log row.
   */
  capturesWithoutSettlement: number;
  /**
   * Capture rows whose amount differs from their request log's cost. A capped capture is no exception:
   * the log's cost is what was captured, and what the account could not pay is the log's overage.
   */
  capturesUnlikeTheirLog: number;
  /** Σ of the overage on the account's request logs: cost its usage came to that was not captured. */
  uncaptured: bigint;
  /** balance ≥ −overdraftLimit: captures are capped so that it always holds. */
  withinOverdraft: boolean;
  /**
   * balance = credits − captures − debits, held = openHolds + openLeases, and every capture belongs to a
   * settled request and equals its log's cost.
   */
  balanced: boolean;
}

interface AuditRow {
  account_id: string;
  balance: bigint;
  held: bigint;
  overdraft_limit: bigint;
  credits: bigint;
  captures: bigint;
  debits: bigint;
  open_holds: bigint;
  open_leases: bigint;
  orphan_captures: number;
  captures_unlike_log: number;
  uncaptured: bigint;
}

/**
 * Recomputes an account's balance from the ledger (credits, captures and debits: the money that moved) and its
 * held amount from the holds and leases tables (reservations). Ledger rows of the kinds `hold` and `release`,
 * written before migration `holds_once_per_account_not_in_ledger`, moved no money and are not counted.
 */
export class LedgerAudit {
  constructor(private readonly prisma: Pick<PrismaClient, '$queryRaw'>) {}

  async auditAccount(accountId: string): Promise<LedgerAuditResult> {
    const [row] = await this.auditRows(Prisma.sql`WHERE a.id = ${accountId}`);
    if (!row) throw new Error(`no account ${accountId} to audit`);
    return toAuditResult(row);
  }

  /**
   * Every account, in one statement (one snapshot: sums taken while money moves still agree), in id
   * order. Its cost grows with the number of accounts and ledger rows; it is an operator's check, not a
   * serving-path query.
   */
  async auditAll(): Promise<LedgerAuditResult[]> {
    const rows = await this.auditRows(Prisma.sql`ORDER BY a.id`);
    return rows.map(toAuditResult);
  }

  private auditRows(tail: Prisma.Sql): Promise<AuditRow[]> {
    return this.prisma.$queryRaw<AuditRow[]>`
      SELECT a.id AS account_id, a.balance, a.held, a.overdraft_limit,
             (SELECT coalesce(sum(amount), 0)::int8 FROM ledger_entries
               WHERE account_id = a.id AND kind = 'credit') AS credits,
             (SELECT coalesce(sum(amount), 0)::int8 FROM ledger_entries
               WHERE account_id = a.id AND kind = 'capture') AS captures,
             (SELECT coalesce(sum(amount), 0)::int8 FROM ledger_entries
               WHERE account_id = a.id AND kind = 'debit') AS debits,
             (SELECT coalesce(sum(amount), 0)::int8 FROM holds
               WHERE account_id = a.id AND status = 'open') AS open_holds,
             (SELECT coalesce(sum(amount), 0)::int8 FROM leases
               WHERE account_id = a.id AND status = 'open') AS open_leases,
             (SELECT count(*)::int4 FROM ledger_entries c
               WHERE c.account_id = a.id AND c.kind = 'capture'
                 AND NOT EXISTS (SELECT 1 FROM holds h
                                  WHERE h.request_id = c.request_id AND h.status = 'settled')
                 AND NOT EXISTS (SELECT 1 FROM request_logs l
                                  WHERE l.request_id = c.request_id)) AS orphan_captures,
             (SELECT count(*)::int4 FROM ledger_entries c
                JOIN request_logs l ON l.request_id = c.request_id
               WHERE c.account_id = a.id AND c.kind = 'capture'
                 AND l.cost_micros <> c.amount) AS captures_unlike_log,
             (SELECT coalesce(sum(overage_micros), 0)::int8 FROM request_logs
               WHERE account_id = a.id) AS uncaptured
        FROM accounts a
       ${tail}`;
  }
}

function toAuditResult(row: AuditRow): LedgerAuditResult {
  return {
    accountId: row.account_id,
    balance: row.balance,
    held: row.held,
    overdraftLimit: row.overdraft_limit,
    credits: row.credits,
    captures: row.captures,
    debits: row.debits,
    openHolds: row.open_holds,
    openLeases: row.open_leases,
    capturesWithoutSettlement: row.orphan_captures,
    capturesUnlikeTheirLog: row.captures_unlike_log,
    uncaptured: row.uncaptured,
    withinOverdraft: row.balance >= -row.overdraft_limit,
    balanced:
      row.balance === row.credits - row.captures - row.debits &&
      row.held === row.open_holds + row.open_leases &&
      row.orphan_captures === 0 &&
      row.captures_unlike_log === 0,
  };
}
