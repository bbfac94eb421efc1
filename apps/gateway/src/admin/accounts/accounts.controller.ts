import { Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { AccountView, CreateAccountDto, CreditAccountDto } from '@gateway/contracts';
import { DeclaresBody, RouteBody, type DeclaredBody } from '../../platform/http/declared-body';
import { adminBody } from '../shared/admin-body.declaration';
import { AdminController } from '../shared/admin-controller.decorator';
import { AccountListQueryDto } from './account-list-query.dto';
import { AccountListService } from './account-list.service';
import { AccountPageView } from './account-page.view';
import { AccountsService } from './accounts.service';
import { CreditResultView } from './credit-result.view';
import { UpdateAccountDto } from './update-account.dto';

@AdminController('accounts')
export class AccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly accountList: AccountListService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Accounts, newest first; search by name; pass nextCursor as cursor for the next page',
  })
  @ApiQuery({ type: AccountListQueryDto })
  @ApiOkResponse({ type: AccountPageView })
  list(@Query() query: unknown): Promise<AccountPageView> {
    return this.accountList.page(query);
  }

  @Post()
  @ApiOperation({ summary: 'Create an account' })
  @DeclaresBody(adminBody(CreateAccountDto))
  @ApiCreatedResponse({ type: AccountView })
  create(@RouteBody() body: DeclaredBody<CreateAccountDto>): Promise<AccountView> {
    return this.accounts.create(body.fields());
  }

  @Get(':id')
  @ApiOperation({ summary: 'An account and its money (micros as decimal strings)' })
  @ApiOkResponse({ type: AccountView })
  get(@Param('id') id: string): Promise<AccountView> {
    return this.accounts.get(id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename an account or change its overdraft limit' })
  @DeclaresBody(adminBody(UpdateAccountDto))
  @ApiOkResponse({ type: AccountView })
  update(@Param('id') id: string, @RouteBody() body: DeclaredBody<UpdateAccountDto>): Promise<AccountView> {
    return this.accounts.update(id, body.fields());
  }

  @Post(':id/credits')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Add money; an exact retry with the same idempotency key changes nothing, the key reused with ' +
      'another amount, note or account is a 409 idempotency_conflict',
  })
  @DeclaresBody(adminBody(CreditAccountDto))
  @ApiOkResponse({ type: CreditResultView })
  credit(
    @Param('id') id: string,
    @RouteBody() body: DeclaredBody<CreditAccountDto>,
  ): Promise<CreditResultView> {
    return this.accounts.credit(id, body.fields());
  }
}
