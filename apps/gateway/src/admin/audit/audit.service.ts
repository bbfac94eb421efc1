import { Injectable } from '@nestjs/common';
import { LedgerAudit } from '@gateway/billing/ledger-audit';
import type { AuditReportView } from './audit-report.view';
import { findingsOf, totalsOf } from './audit-findings.util';

/**
 * Runs the billing library's ledger audit (the one the money tests and the chaos bench run) over every
 * account and answers its findings.
 */
@Injectable()
export class AuditService {
  constructor(private readonly audit: LedgerAudit) {}

  async report(): Promise<AuditReportView> {
    const checkedAt = new Date();
    const results = await this.audit.auditAll();
    const perAccount = results.map(findingsOf);
    const findings = perAccount.flat();
    return {
      ok: findings.length === 0,
      checkedAt: checkedAt.toISOString(),
      findings,
      totals: totalsOf(results, perAccount.filter((found) => found.length === 0).length),
    };
  }
}
