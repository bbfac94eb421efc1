import { type BillingDatabase, openBillingDatabase } from '../testing/billing-database.fixture';

/** The database itself refuses what the services never do: editing history, negative money rows. */
describe('ledger guards of the migrations (Postgres)', () => {
  let billing: BillingDatabase;
  let accountId: string;

  beforeAll(async () => {
    billing = await openBillingDatabase(5);
    accountId = (await billing.credits.createAccount({ name: 'guarded' })).id;
    await billing.credits.credit({ accountId, amountMicros: 100n, idempotencyKey: 'first' });
  });
  afterAll(() => billing?.close());

  it('refuses to update a ledger row', async () => {
    await expect(billing.pool.query('UPDATE ledger_entries SET amount = 1000000')).rejects.toThrow(
      'ledger_entries is append-only: UPDATE is not allowed',
    );
  });

  it('refuses to delete a ledger row', async () => {
    await expect(billing.pool.query('DELETE FROM ledger_entries')).rejects.toThrow(
      'ledger_entries is append-only: DELETE is not allowed',
    );
    expect(await billing.prisma.ledgerEntry.count()).toBe(1);
  });

  it('refuses negative amounts on ledger rows and holds, and a negative held', async () => {
    await expect(
      billing.pool.query(
        `INSERT INTO ledger_entries (account_id, kind, amount, idempotency_key) VALUES ($1, 'credit', -1, 'neg')`,
        [accountId],
      ),
    ).rejects.toThrow('ledger_entries_amount_not_negative');
    await expect(
      billing.pool.query(
        `INSERT INTO holds (request_id, account_id, key_id, model, route, amount, expires_at)
         VALUES ('req_neg', $1, 'k', 'm', 'r', -1, now())`,
        [accountId],
      ),
    ).rejects.toThrow('holds_amount_not_negative');
    await expect(
      billing.pool.query('UPDATE accounts SET held = -1 WHERE id = $1', [accountId]),
    ).rejects.toThrow('accounts_held_not_negative');
  });

  it('keeps ledger rows appendable', async () => {
    await billing.credits.credit({ accountId, amountMicros: 5n, idempotencyKey: 'second' });
    expect((await billing.audit.auditAccount(accountId)).credits).toBe(105n);
  });
});
