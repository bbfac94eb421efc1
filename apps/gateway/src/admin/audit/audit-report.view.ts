import { ApiProperty } from '@nestjs/swagger';

const MICROS = { type: String, pattern: '^-?[0-9]+$', example: '1500000' };

export const AUDIT_FINDING_KINDS = [
  'balance_mismatch',
  'held_mismatch',
  'capture_without_settlement',
  'capture_unlike_log',
  'beyond_overdraft',
] as const;
export type AuditFindingKind = (typeof AUDIT_FINDING_KINDS)[number];

/** One thing the audit found wrong with one account. */
export class AuditFindingView {
  @ApiProperty({
    description:
      'balance_mismatch: balance ≠ credits − captures − debits; held_mismatch: held ≠ open holds + ' +
      'open leases; capture_without_settlement: captures no settled hold or request log accounts for; ' +
      "capture_unlike_log: captures that differ from their request log's cost; beyond_overdraft: " +
      'balance below minus the overdraft limit.',
    enum: AUDIT_FINDING_KINDS,
  })
  kind: AuditFindingKind;

  @ApiProperty({ description: 'The account concerned.' })
  accountId: string;

  @ApiProperty({
    description: 'What the books should hold: micros, or a count of ledger rows.',
    example: '0',
  })
  expected: string;

  @ApiProperty({ description: 'What they hold.', example: '2' })
  actual: string;

  @ApiProperty({ description: 'The finding in one sentence.' })
  message: string;
}

/** Sums over every account, in micros (decimal strings). */
export class AuditTotalsView {
  @ApiProperty({ description: 'Accounts audited.', type: 'integer' })
  accounts: number;

  @ApiProperty({ description: 'Accounts with no finding.', type: 'integer' })
  accountsBalanced: number;

  @ApiProperty({ description: 'Σ balance.', ...MICROS })
  balanceMicros: string;

  @ApiProperty({ description: 'Σ held.', ...MICROS })
  heldMicros: string;

  @ApiProperty({ description: 'Σ credit rows.', ...MICROS })
  creditsMicros: string;

  @ApiProperty({ description: 'Σ capture rows.', ...MICROS })
  capturesMicros: string;

  @ApiProperty({ description: 'Σ debit rows.', ...MICROS })
  debitsMicros: string;

  @ApiProperty({ description: 'Σ open holds.', ...MICROS })
  openHoldsMicros: string;

  @ApiProperty({ description: 'Σ of what open leases reserve.', ...MICROS })
  openLeasesMicros: string;

  @ApiProperty({
    description: 'Σ overage of the request logs: usage the accounts could not pay, absorbed by the operator.',
    ...MICROS,
  })
  overageMicros: string;
}

/** The ledger audit of every account. */
export class AuditReportView {
  @ApiProperty({ description: 'True when nothing was found.' })
  ok: boolean;

  @ApiProperty({
    description: 'When the books were read (ISO 8601); one snapshot for every account.',
    format: 'date-time',
  })
  checkedAt: string;

  @ApiProperty({
    description: 'What is wrong, per account; empty when ok.',
    type: () => AuditFindingView,
    isArray: true,
  })
  findings: AuditFindingView[];

  @ApiProperty({ description: 'Sums over every account.', type: () => AuditTotalsView })
  totals: AuditTotalsView;
}
