import {
  nextRequestId,
  openBillingDatabase,
  type BillingDatabase,
} from '../testing/billing-database.fixture';

describe('LedgerAudit (Postgres)', () => {
  let billing: BillingDatabase;

  beforeAll(async () => {
    billing = await openBillingDatabase(5);
  });
  afterAll(() => billing?.close());

  async function accountWithSettledRequest(): Promise<{ accountId: string; requestId: string }> {
    const { id: accountId } = await billing.credits.createAccount({ name: 'audited' });
    await billing.credits.credit({ accountId, amountMicros: 10_000n, idempotencyKey: `fund:${accountId}` });
    const requestId = nextRequestId();
    await billing.holds.take({
      requestId,
      accountId,
      keyId: 'key_1',
      model: 'omega-text-1',
      route: '/v1/chat/completions',
      amount: 3_000n,
      ttlMs: 60_000,
    });
    await billing.settlements.settle({
      requestId,
      captureMicros: 1_200n,
      log: {
        route: '/v1/chat/completions',
        httpStatus: 200,
        endReason: 'completed',
        latencyMs: 1,
        inputTokens: 1,
        outputTokens: 1,
        attempts: 1,
      },
    });
    return { accountId, requestId };
  }

  it('balances an account whose money moved only through credits and settled captures', async () => {
    const { accountId } = await accountWithSettledRequest();

    expect(await billing.audit.auditAccount(accountId)).toMatchObject({
      balance: 8_800n,
      held: 0n,
      credits: 10_000n,
      captures: 1_200n,
      openHolds: 0n,
      capturesWithoutSettlement: 0,
      balanced: true,
    });
  });

  it('flags a capture that no settled hold or request log accounts for', async () => {
    const { accountId } = await accountWithSettledRequest();
    await billing.pool.query(
      `INSERT INTO ledger_entries (account_id, kind, amount, idempotency_key, request_id, created_at)
       VALUES ($1, 'capture', 0, $2, $3, now())`,
      [accountId, `capture:stray-${accountId}`, `stray-${accountId}`],
    );

    expect(await billing.audit.auditAccount(accountId)).toMatchObject({
      capturesWithoutSettlement: 1,
      balanced: false,
    });
  });

  it('flags a held amount that the open holds do not add up to', async () => {
    const { accountId } = await accountWithSettledRequest();
    await billing.pool.query('UPDATE accounts SET held = held + 5 WHERE id = $1', [accountId]);

    expect(await billing.audit.auditAccount(accountId)).toMatchObject({
      held: 5n,
      openHolds: 0n,
      balanced: false,
    });
  });

  it('flags a capture that differs from its log, and a balance below minus the overdraft limit', async () => {
    const { accountId, requestId } = await accountWithSettledRequest();
    // As a capture of the full usage beyond what the account could pay would leave them.
    await billing.pool.query(
      `UPDATE request_logs SET cost_micros = 1000, overage_micros = 200 WHERE request_id = $1`,
      [requestId],
    );
    await billing.pool.query('UPDATE accounts SET balance = -1 WHERE id = $1', [accountId]);

    expect(await billing.audit.auditAccount(accountId)).toMatchObject({
      capturesUnlikeTheirLog: 1,
      uncaptured: 200n,
      withinOverdraft: false,
      balanced: false,
    });
  });
});
