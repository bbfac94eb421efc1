import { type BillingDatabase, openBillingDatabase } from '../testing/billing-database.fixture';
import { settleHoldsStatement } from './settle-holds.statement';

const OPEN_HOLDS = 3_000;

/** Every index the plan of a statement reads, from EXPLAIN (FORMAT JSON) without running it. */
async function indexesRead(billing: BillingDatabase, text: string, values: unknown[]): Promise<string[]> {
  const { rows } = await billing.pool.query<{ 'QUERY PLAN': unknown }>(
    `EXPLAIN (FORMAT JSON) ${text}`,
    values,
  );
  return [...JSON.stringify(rows[0]['QUERY PLAN']).matchAll(/"Index Name":"([^"]+)"/g)].map(
    (match) => match[1],
  );
}

describe('the settlement statement plan (Postgres)', () => {
  let billing: BillingDatabase;

  beforeAll(async () => {
    billing = await openBillingDatabase(2);
  });
  afterAll(() => billing?.close());

  it('finds the holds it settles by their keys, not among every open hold, before any statistics', async () => {
    const accountId = await billing.fundedAccount(10_000_000n);
    // Written straight into the table, as outstanding video tasks leave them, with no ANALYZE after.
    await billing.pool.query(
      `INSERT INTO holds (request_id, account_id, key_id, model, route, amount, status, created_at, expires_at)
       SELECT 'plan_' || n, $1, 'key_1', 'delta-2', '/v1/videos', 1000, 'open', now(), now() + interval '1 hour'
         FROM generate_series(1, ${OPEN_HOLDS}) AS n`,
      [accountId],
    );
    const item = { requestId: 'plan_7', captureMicros: 500, keyId: 'key_1', accountId, model: 'delta-2' };
    const indexes = await indexesRead(billing, settleHoldsStatement.text, [JSON.stringify([item])]);
    expect(indexes).toContain('holds_pkey');
    expect(indexes).not.toContain('holds_status_expires_at_idx');
  });
});
