import { Inject, Injectable } from '@nestjs/common';
import { CreditKeyConflictError, CreditOverflowError, CreditService } from '@gateway/billing';
import { CreateAccountDto, CreditAccountDto, type AccountView } from '@gateway/contracts';
import type { Account, PrismaClient } from '@gateway/db';
import { GatewayError } from '../../errors/gateway-error';
import { PRISMA } from '../../infrastructure/tokens';
import { idempotencyKeyConflict } from '../ledger/key-conflict.error';
import { newAdminId } from '../shared/admin-id.util';
import { parseAdminInput } from '../shared/admin-input.util';
import { missingRecordAs } from '../shared/prisma-error.util';
import { accountNotFound } from './account-not-found.error';
import { toAccountView } from './account-view.mapper';
import type { CreditResultView } from './credit-result.view';
import { UpdateAccountDto } from './update-account.dto';

/** Accounts and their credits; money moves only through the billing library's ledger statements. */
@Injectable()
export class AccountsService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly credits: CreditService,
  ) {}

  async create(body: unknown): Promise<AccountView> {
    const input = parseAdminInput(CreateAccountDto, body);
    const row = await this.credits.createAccount({
      id: newAdminId('acct'),
      name: input.name,
      overdraftLimitMicros: BigInt(input.overdraftLimitMicros),
    });
    return toAccountView(row);
  }

  async get(id: string): Promise<AccountView> {
    return toAccountView(await this.findAccount(id));
  }

  async update(id: string, body: unknown): Promise<AccountView> {
    const { name, overdraftLimitMicros } = parseAdminInput(UpdateAccountDto, body);
    const row = await this.prisma.account
      .update({
        where: { id },
        data: {
          name,
          ...(overdraftLimitMicros !== undefined ? { overdraftLimit: BigInt(overdraftLimitMicros) } : {}),
        },
      })
      .catch(missingRecordAs(() => accountNotFound(id)));
    return toAccountView(row);
  }

  /**
   * Idempotent per `idempotencyKey`: an exact replay answers `applied: false` and changes nothing; the key
   * reused for another account, amount or note is a 409, as for a debit.
   */
  async credit(id: string, body: unknown): Promise<CreditResultView> {
    const input = parseAdminInput(CreditAccountDto, body);
    await this.findAccount(id);
    const { applied } = await this.credits
      .credit({
        accountId: id,
        amountMicros: BigInt(input.amountMicros),
        idempotencyKey: input.idempotencyKey,
        note: input.note,
      })
      .catch((error: unknown) => {
        throw creditRefusal(error, input);
      });
    return { applied, account: toAccountView(await this.findAccount(id)) };
  }

  private async findAccount(id: string): Promise<Account> {
    const row = await this.prisma.account.findUnique({ where: { id } });
    if (!row) throw accountNotFound(id);
    return row;
  }
}

/** The credit's own refusals as answers; anything else stays an internal error. */
function creditRefusal(error: unknown, input: CreditAccountDto): unknown {
  if (error instanceof CreditKeyConflictError)
    return idempotencyKeyConflict(input.idempotencyKey, error.entry);
  if (error instanceof CreditOverflowError) {
    return new GatewayError(
      'conflict',
      `amountMicros ${input.amountMicros} would take the account's balance beyond the largest amount it ` +
        'can hold (9223372036854775807 micros); nothing was credited.',
      { param: 'amountMicros' },
    );
  }
  return error;
}
