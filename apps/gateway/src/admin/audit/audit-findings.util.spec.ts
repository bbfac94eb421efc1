import type { LedgerAuditResult } from '@gateway/billing/ledger-audit';
import { findingsOf, totalsOf } from './audit-findings.util';

function audited(fields: Partial<LedgerAuditResult> = {}): LedgerAuditResult {
  return {
    accountId: 'acct_1',
    balance: 700n,
    held: 30n,
    overdraftLimit: 0n,
    credits: 1_000n,
    captures: 200n,
    debits: 100n,
    openHolds: 20n,
    openLeases: 10n,
    capturesWithoutSettlement: 0,
    capturesUnlikeTheirLog: 0,
    uncaptured: 5n,
    withinOverdraft: true,
    balanced: true,
    ...fields,
  };
}

describe('findingsOf', () => {
  it('finds nothing in books that agree', () => {
    expect(findingsOf(audited())).toEqual([]);
  });

  it('names each broken rule with what was expected and what was found', () => {
    const findings = findingsOf(
      audited({
        balance: -8n,
        held: 31n,
        capturesWithoutSettlement: 2,
        capturesUnlikeTheirLog: 1,
        overdraftLimit: 5n,
        withinOverdraft: false,
        balanced: false,
      }),
    );
    expect(findings.map(({ kind, expected, actual }) => ({ kind, expected, actual }))).toEqual([
      { kind: 'balance_mismatch', expected: '700', actual: '-8' },
      { kind: 'held_mismatch', expected: '30', actual: '31' },
      { kind: 'capture_without_settlement', expected: '0', actual: '2' },
      { kind: 'capture_unlike_log', expected: '0', actual: '1' },
      { kind: 'beyond_overdraft', expected: '-5', actual: '-8' },
    ]);
    expect(findings.every((finding) => finding.accountId === 'acct_1')).toBe(true);
  });
});

describe('totalsOf', () => {
  it('sums exactly beyond the safe integer range', () => {
    const big = 9_007_199_254_740_993n;
    const totals = totalsOf([audited({ balance: big, credits: big }), audited({ accountId: 'acct_2' })], 2);
    expect(totals).toEqual({
      accounts: 2,
      accountsBalanced: 2,
      balanceMicros: (big + 700n).toString(),
      heldMicros: '60',
      creditsMicros: (big + 1_000n).toString(),
      capturesMicros: '400',
      debitsMicros: '200',
      openHoldsMicros: '40',
      openLeasesMicros: '20',
      overageMicros: '10',
    });
  });

  it('answers zeros for no accounts', () => {
    expect(totalsOf([], 0)).toMatchObject({ accounts: 0, balanceMicros: '0' });
  });
});
