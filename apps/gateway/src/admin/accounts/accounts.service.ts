import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { KeyResolver } from '@gateway/auth';
import { CreditKeyConflictError, CreditOverflowError, CreditService } from '@gateway/billing';
import { CreateAccountDto, CreditAccountDto, type AccountView } from '@gateway/contracts';
import type { Account, PrismaClient } from '@gateway/db';
import { GatewayError } from '@gateway/errors';
import { GovernanceFigures } from '../../governance/governance-figures.service';
import { LOGGER, PRISMA } from '../../platform/infrastructure/tokens';
import { governanceDataOf } from '../shared/governance-columns.mapper';
import { idempotencyKeyConflict } from '../ledger/key-conflict.error';
import { newAdminId } from '../shared/admin-id.util';
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
    private readonly keyResolver: KeyResolver,
    private readonly figures: GovernanceFigures,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async create(input: CreateAccountDto): Promise<AccountView> {
    const row = await this.credits.createAccount({
      id: newAdminId('acct'),
      name: input.name,
      overdraftLimitMicros: BigInt(input.overdraftLimitMicros),
    });
    if (input.limits == null && input.budget == null) return toAccountView(row);
    // A new account has no keys yet: nothing cached to invalidate.
    return toAccountView(
      await this.prisma.account.update({ where: { id: row.id }, data: governanceDataOf(input, null) }),
    );
  }

  async get(id: string): Promise<AccountView> {
    const row = await this.findAccount(id);
    const current = await this.figures.of({ kind: 'account', accountId: row.id, ...row });
    return { ...toAccountView(row), current };
  }

  async update(id: string, input: UpdateAccountDto): Promise<AccountView> {
    const { name, overdraftLimitMicros, limits, budget } = input;
    const stored = limits ? await this.findAccount(id) : null;
    const row = await this.prisma.account
      .update({
        where: { id },
        data: {
          name,
          ...(overdraftLimitMicros !== undefined ? { overdraftLimit: BigInt(overdraftLimitMicros) } : {}),
          ...governanceDataOf({ limits, budget }, stored?.limits ?? null),
        },
      })
      .catch(missingRecordAs(() => accountNotFound(id)));
    if (limits !== undefined || budget !== undefined) await this.dropKeysFromCaches(id);
    return toAccountView(row);
  }

  /**
   * Every instance forgets the account's keys, so that their next request reads the account's new limits
   * or budget (within about a second; the key cache's lifetime bounds it if the message is lost).
   */
  private async dropKeysFromCaches(accountId: string): Promise<void> {
    try {
      await this.keyResolver.invalidate(accountId);
    } catch (error) {
      this.logger.warn(
        { err: error, accountId },
        'account change saved but not announced; caches expire it shortly',
      );
    }
  }

  /**
   * Idempotent per `idempotencyKey`: an exact replay answers `applied: false` and changes nothing; the key
   * reused for another account, amount or note is a 409, as for a debit.
   */
  async credit(id: string, input: CreditAccountDto): Promise<CreditResultView> {
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
