import type { LedgerAuditResult } from '@gateway/billing/ledger-audit';
import type { AuditFindingView, AuditTotalsView } from './audit-report.view';

/** What the audit of one account found wrong, one finding per broken rule (none when its books agree). */
export function findingsOf(result: LedgerAuditResult): AuditFindingView[] {
  const { accountId } = result;
  const findings: AuditFindingView[] = [];
  const ledgerBalance = result.credits - result.captures - result.debits;
  if (result.balance !== ledgerBalance) {
    findings.push({
      kind: 'balance_mismatch',
      accountId,
      expected: ledgerBalance.toString(),
      actual: result.balance.toString(),
      message: `balance ${result.balance} differs from credits − captures − debits = ${ledgerBalance} micros.`,
    });
  }
  const reserved = result.openHolds + result.openLeases;
  if (result.held !== reserved) {
    findings.push({
      kind: 'held_mismatch',
      accountId,
      expected: reserved.toString(),
      actual: result.held.toString(),
      message: `held ${result.held} differs from open holds + open leases = ${reserved} micros.`,
    });
  }
  if (result.capturesWithoutSettlement > 0) {
    findings.push({
      kind: 'capture_without_settlement',
      accountId,
      expected: '0',
      actual: String(result.capturesWithoutSettlement),
      message: `${result.capturesWithoutSettlement} capture row(s) belong to no settled hold and no request log.`,
    });
  }
  if (result.capturesUnlikeTheirLog > 0) {
    findings.push({
      kind: 'capture_unlike_log',
      accountId,
      expected: '0',
      actual: String(result.capturesUnlikeTheirLog),
      message: `${result.capturesUnlikeTheirLog} capture row(s) differ from their request log's cost.`,
    });
  }
  if (!result.withinOverdraft) {
    const floor = -result.overdraftLimit;
    findings.push({
      kind: 'beyond_overdraft',
      accountId,
      expected: floor.toString(),
      actual: result.balance.toString(),
      message: `balance ${result.balance} is below minus the overdraft limit (${floor} micros).`,
    });
  }
  return findings;
}

/** Sums over every audited account. */
export function totalsOf(results: LedgerAuditResult[], accountsBalanced: number): AuditTotalsView {
  const sum = (pick: (result: LedgerAuditResult) => bigint): string =>
    results.reduce((total, result) => total + pick(result), 0n).toString();
  return {
    accounts: results.length,
    accountsBalanced,
    balanceMicros: sum((result) => result.balance),
    heldMicros: sum((result) => result.held),
    creditsMicros: sum((result) => result.credits),
    capturesMicros: sum((result) => result.captures),
    debitsMicros: sum((result) => result.debits),
    openHoldsMicros: sum((result) => result.openHolds),
    openLeasesMicros: sum((result) => result.openLeases),
    overageMicros: sum((result) => result.uncaptured),
  };
}
