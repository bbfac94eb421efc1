import { Inject, Injectable } from '@nestjs/common';
import { DebitService, type DebitOutcome } from '@gateway/billing';
import type { PrismaClient } from '@gateway/db';
import { GatewayError } from '@gateway/errors';
import { PRISMA } from '../../platform/infrastructure/tokens';
import { accountNotFound } from '../accounts/account-not-found.error';
import { toAccountView } from '../accounts/account-view.mapper';
import { DebitAccountDto } from './debit-account.dto';
import { idempotencyKeyConflict } from './key-conflict.error';
import type { DebitResultView } from './debit-result.view';
import { toLedgerEntryView } from './ledger-entry.mapper';

/** Operator debits; the billing library's DebitService writes them, this answers each outcome. */
@Injectable()
export class DebitsService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly debits: DebitService,
  ) {}

  async debit(accountId: string, input: DebitAccountDto): Promise<DebitResultView> {
    const outcome = await this.debits.debit({
      accountId,
      amountMicros: BigInt(input.amountMicros),
      idempotencyKey: input.idempotencyKey,
      note: input.note,
    });
    if (outcome.status !== 'applied' && outcome.status !== 'replayed')
      throw refusalOf(outcome, input, accountId);
    const account = await this.prisma.account.findUnique({ where: { id: accountId } });
    if (!account) throw accountNotFound(accountId);
    return {
      applied: outcome.status === 'applied',
      entry: toLedgerEntryView(outcome.entry),
      account: toAccountView(account),
    };
  }
}

type Refusal = Exclude<DebitOutcome, { status: 'applied' | 'replayed' }>;

function refusalOf(outcome: Refusal, input: DebitAccountDto, accountId: string): GatewayError {
  switch (outcome.status) {
    case 'no_account':
      return accountNotFound(accountId);
    case 'key_conflict':
      return idempotencyKeyConflict(input.idempotencyKey, outcome.entry);
    case 'beyond_overdraft':
      return new GatewayError(
        'conflict',
        `amountMicros ${input.amountMicros} would take the account's available amount ` +
          `(${outcome.availableMicros} micros) below minus its overdraft limit ` +
          `(${outcome.overdraftLimitMicros} micros); raise overdraftLimitMicros first if this correction ` +
          'must go further.',
        { param: 'amountMicros' },
      );
  }
}
