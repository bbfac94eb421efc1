import { Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { DeclaresBody, RouteBody, type DeclaredBody } from '../../platform/http/declared-body';
import { adminBody } from '../shared/admin-body.declaration';
import { AdminController } from '../shared/admin-controller.decorator';
import { DebitAccountDto } from './debit-account.dto';
import { DebitResultView } from './debit-result.view';
import { DebitsService } from './debits.service';
import { LedgerPageView } from './ledger-entry.view';
import { LedgerQueryDto } from './ledger-query.dto';
import { LedgerService } from './ledger.service';

/** An account's ledger and the operator's debits, under /admin/accounts/{id}. */
@AdminController('accounts')
export class LedgerController {
  constructor(
    private readonly ledger: LedgerService,
    private readonly debits: DebitsService,
  ) {}

  @Get(':id/ledger')
  @ApiOperation({
    summary: "An account's ledger rows, newest first; pass nextCursor as cursor for the next page",
    description:
      'Every row that moved money: credits, captures (with the request, and the task where a task ' +
      'paid) and debits. The account balance equals credits − captures − debits. 404 for an unknown account.',
  })
  @ApiQuery({ type: LedgerQueryDto })
  @ApiOkResponse({ type: LedgerPageView })
  ledgerPage(@Param('id') id: string, @Query() query: unknown): Promise<LedgerPageView> {
    return this.ledger.page(id, query);
  }

  @Post(':id/debits')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Take money out (an operator correction); idempotent per idempotencyKey',
    description:
      'Writes one `debit` ledger row and lowers the balance by the same amount. A retry with the same ' +
      'key, amount and note changes nothing and answers the same entry with applied: false; the key with ' +
      'another amount, note or account is a 409 idempotency_conflict. The balance may go below zero, but ' +
      'only while balance − held − amount stays at or above minus the overdraft limit (so every open ' +
      'hold stays payable); a larger debit is a 409 conflict naming amountMicros. A correction that must ' +
      'go further is made explicit by raising overdraftLimitMicros (PATCH the account) first.',
  })
  @DeclaresBody(adminBody(DebitAccountDto))
  @ApiOkResponse({ type: DebitResultView })
  debit(@Param('id') id: string, @RouteBody() body: DeclaredBody<DebitAccountDto>): Promise<DebitResultView> {
    return this.debits.debit(id, body.fields());
  }
}
