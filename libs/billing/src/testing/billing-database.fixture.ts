import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { createTestDatabase } from '@gateway/testing';
import type { Pool } from 'pg';
import { CreditService } from '../account/credit.service';
import { DebitService } from '../account/debit.service';
import { HoldService } from '../hold/hold.service';
import { LedgerAudit } from '../ledger/ledger-audit';
import { HoldReaper } from '../settlement/hold-reaper.service';
import { SettlementService } from '../settlement/settlement.service';

/** A migrated throw-away database with every billing service wired to it, for integration specs. */
export interface BillingDatabase {
  pool: Pool;
  prisma: PrismaClient;
  holds: HoldService;
  settlements: SettlementService;
  reaper: HoldReaper;
  credits: CreditService;
  debits: DebitService;
  audit: LedgerAudit;
  /** A new account credited with `balance` micros; returns its id. */
  fundedAccount(balance: bigint, overdraftLimitMicros?: bigint): Promise<string>;
  close(): Promise<void>;
}

export async function openBillingDatabase(maxConnections = 20): Promise<BillingDatabase> {
  const database = await createTestDatabase();
  const pool = createPgPool(database.url, maxConnections);
  const prisma = createPrismaClient(pool);
  const settlements = new SettlementService(pool);
  const credits = new CreditService(prisma);
  return {
    pool,
    prisma,
    holds: new HoldService(pool),
    settlements,
    reaper: new HoldReaper(pool, settlements),
    credits,
    debits: new DebitService(prisma),
    audit: new LedgerAudit(prisma),
    fundedAccount: async (balance, overdraftLimitMicros = 0n) => {
      const { id } = await credits.createAccount({ name: 'funded', overdraftLimitMicros });
      if (balance > 0n) await credits.credit({ accountId: id, amountMicros: balance, idempotencyKey: id });
      return id;
    },
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
      await database.drop();
    },
  };
}

let requestCounter = 0;

/** A unique request id per call within a spec file. */
export function nextRequestId(): string {
  requestCounter += 1;
  return `req_${requestCounter}`;
}
