import { Body, Controller, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { AccountView, CreateAccountDto, CreditAccountDto } from '@gateway/contracts';
import { AdminTokenGuard } from '../../auth/admin-token.guard';
import { AccountsService } from './accounts.service';
import { CreditResultView } from './credit-result.view';
import { UpdateAccountDto } from './update-account.dto';

@ApiTags('admin')
@ApiBearerAuth()
@Controller('admin/accounts')
@UseGuards(AdminTokenGuard)
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Post()
  @ApiOperation({ summary: 'Create an account' })
  @ApiBody({ type: CreateAccountDto })
  @ApiCreatedResponse({ type: AccountView })
  create(@Body() body: unknown): Promise<AccountView> {
    return this.accounts.create(body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'An account and its money (micros as decimal strings)' })
  @ApiOkResponse({ type: AccountView })
  get(@Param('id') id: string): Promise<AccountView> {
    return this.accounts.get(id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename an account or change its overdraft limit' })
  @ApiBody({ type: UpdateAccountDto })
  @ApiOkResponse({ type: AccountView })
  update(@Param('id') id: string, @Body() body: unknown): Promise<AccountView> {
    return this.accounts.update(id, body);
  }

  @Post(':id/credits')
  @HttpCode(200)
  @ApiOperation({ summary: 'Add money; a repeated idempotency key changes nothing' })
  @ApiBody({ type: CreditAccountDto })
  @ApiOkResponse({ type: CreditResultView })
  credit(@Param('id') id: string, @Body() body: unknown): Promise<CreditResultView> {
    return this.accounts.credit(id, body);
  }
}
