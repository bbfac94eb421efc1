import { Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AdminController } from '../shared/admin-controller.decorator';
import { AuditReportView } from './audit-report.view';
import { AuditService } from './audit.service';

@AdminController('audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOperation({
    summary: 'Audit the ledger of every account',
    description:
      'Reads every account in one snapshot and checks that balance = credits − captures − debits, that ' +
      'held = open holds + open leases, that every capture belongs to a settled hold (or its request log) ' +
      "and equals that log's cost, and that no balance is below minus its overdraft limit. ok is false " +
      'when anything was found; totals sum every account, overage included. Its cost grows with the ' +
      'ledger: an operator check, not a health probe.',
  })
  @ApiOkResponse({ type: AuditReportView })
  report(): Promise<AuditReportView> {
    return this.audit.report();
  }
}
