import { GatewayHarness } from './gateway-harness';

interface OpenAiError {
  error: { message: string; type: string; code: string };
}

describe('money under concurrency', () => {
  let harness: GatewayHarness;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
  });
  afterAll(() => harness.close());

  it('admits at most what the balance covers among 200 concurrent requests, and the ledger balances', async () => {
    // A per-call price makes the hold and the capture equal, so "covers exactly 10" is exact.
    await harness.adminOk('PUT', '/admin/prices', { prices: [{ model: 'per-call', perCall: '1000' }] });
    await harness.createChannel({
      type: 'compat',
      name: 'per-call-compat',
      secret: 'sim-compat-key',
      models: [{ model: 'per-call', upstreamModel: 'chat-fast' }],
    });
    const accountId = await harness.createAccount(10_000n);
    const { key } = await harness.createKey(accountId);

    const answers = await Promise.all(
      Array.from({ length: 200 }, () =>
        harness.request<OpenAiError>('POST', '/v1/chat/completions', {
          body: { model: 'per-call', messages: [{ role: 'user', content: 'hi [[sim latency=300]]' }] },
          headers: { authorization: `Bearer ${key}` },
        }),
      ),
    );
    const admitted = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 402);
    expect(admitted.length).toBeLessThanOrEqual(10);
    expect(admitted.length).toBe(10);
    expect(refused.length).toBe(200 - admitted.length);
    for (const answer of refused) {
      expect(answer.body.error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota' });
      expect(answer.body.error.message).toMatch(/balance is too low/);
    }

    await harness.settled();
    const account = await harness.adminOk<{ balanceMicros: string; heldMicros: string }>(
      'GET',
      `/admin/accounts/${accountId}`,
    );
    expect(account.heldMicros).toBe('0');
    const { credit: credits, capture: captures } = await harness.ledgerTotals(accountId);
    expect(credits - captures).toBe(BigInt(account.balanceMicros));
    expect(captures).toBe(10_000n);
    const captureRows = await harness.query<{ n: number }>(
      "select count(*)::int as n from ledger_entries where account_id = $1 and kind = 'capture'",
      [accountId],
    );
    expect(captureRows[0].n).toBe(10);

    const rows = await harness.query<{ end_reason: string; count: string }>(
      'select end_reason, count(*)::text as count from request_logs where account_id = $1 group by end_reason',
      [accountId],
    );
    const byReason = Object.fromEntries(rows.map((row) => [row.end_reason, Number(row.count)]));
    expect(byReason).toEqual({ completed: 10, insufficient_balance: 190 });
  });

  it('lets an account with an overdraft go below zero by at most its limit', async () => {
    await harness.adminOk('PUT', '/admin/prices', { prices: [{ model: 'per-call', perCall: '1000' }] });
    const accountId = await harness.createAccount(0n, 3000n);
    const { key } = await harness.createKey(accountId);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const answer = await harness.request('POST', '/v1/chat/completions', {
        body: { model: 'per-call', messages: [{ role: 'user', content: 'hi' }] },
        headers: { authorization: `Bearer ${key}` },
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([200, 200, 200, 402, 402]);
    await harness.settled();
    const account = await harness.adminOk<{ balanceMicros: string }>('GET', `/admin/accounts/${accountId}`);
    expect(account.balanceMicros).toBe('-3000');
  });
});
