import { GatewayHarness, NATIVE_GENERATE_PATH, type TextDemo } from './gateway-harness';

interface LogRow {
  cost_micros: string;
  overage_micros: string;
  output_tokens: number;
  http_status: number;
}

/** Micros of the uncaptured-usage counter on the gateway's /metrics page. */
async function uncapturedMicros(harness: GatewayHarness): Promise<number> {
  const { text } = await harness.request('GET', '/metrics');
  const line = text.split('\n').find((entry) => entry.startsWith('gateway_uncaptured_micros_total '));
  return Number(line?.split(' ')[1]);
}

describe('money when the upstream reports more usage than the hold covered', () => {
  let harness: GatewayHarness;
  let demo: TextDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    // kappa-2.0-flash costs 1 micro per input token and 2 per output token (TEST_PRICES).
    demo = await harness.seedTextDemo();
  });
  afterAll(() => harness.close());

  async function accountWithKey(creditMicros: bigint, overdraftMicros = 0n) {
    const accountId = await harness.createAccount(creditMicros, overdraftMicros);
    const { key } = await harness.createKey(accountId);
    return { accountId, key };
  }

  function logRowsOf(accountId: string) {
    return harness.query<LogRow>(
      `select cost_micros::text, overage_micros::text, output_tokens, http_status
         from request_logs where account_id = $1`,
      [accountId],
    );
  }

  async function balanceOf(accountId: string): Promise<bigint> {
    const account = await harness.adminOk<{ balanceMicros: string }>('GET', `/admin/accounts/${accountId}`);
    return BigInt(account.balanceMicros);
  }

  it.each([
    ['no overdraft', 0n],
    ['an overdraft of 5,000 micros', 5_000n],
  ])(
    'ends 20 concurrent requests that think far beyond their hold at no less than minus the overdraft, with %s',
    async (_, overdraftMicros) => {
      const { accountId, key } = await accountWithKey(10_000n, overdraftMicros);
      const uncapturedBefore = await uncapturedMicros(harness);
      // maxOutputTokens 10 holds about a hundred micros; 20,000 thinking tokens cost 40,000 micros. The
      // upstream answers after a second, so that all 20 holds are taken before the first capture even on
      // a loaded machine (a capture first leaves nothing to hold: 402, which this test is not about).
      const body = {
        contents: [{ role: 'user', parts: [{ text: 'think hard [[sim thoughts=20000;latency=1000]]' }] }],
        generationConfig: { maxOutputTokens: 10 },
      };

      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          harness.request('POST', NATIVE_GENERATE_PATH, { body, headers: { 'x-vendor-api-key': key } }),
        ),
      );
      await harness.settled();

      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
      const balance = await balanceOf(accountId);
      expect(balance).toBeGreaterThanOrEqual(-overdraftMicros);
      const rows = await logRowsOf(accountId);
      expect(rows).toHaveLength(20);
      const captured = rows.reduce((sum, row) => sum + BigInt(row.cost_micros), 0n);
      const uncaptured = rows.reduce((sum, row) => sum + BigInt(row.overage_micros), 0n);
      // Everything the account could pay was captured, the rest recorded as overage.
      expect(captured).toBe(10_000n + overdraftMicros);
      expect(balance).toBe(-overdraftMicros);
      for (const row of rows) {
        expect(BigInt(row.cost_micros) + BigInt(row.overage_micros)).toBeGreaterThan(40_000n);
      }
      expect(rows.filter((row) => BigInt(row.overage_micros) > 0n).length).toBeGreaterThan(0);
      const { capture } = await harness.ledgerTotals(accountId);
      expect(capture).toBe(captured);
      expect((await uncapturedMicros(harness)) - uncapturedBefore).toBe(Number(uncaptured));
    },
  );

  it('settles usage beyond the integer columns instead of retrying it for ever', async () => {
    const { accountId, key } = await accountWithKey(50_000n);
    const answer = await harness.request('POST', NATIVE_GENERATE_PATH, {
      body: { contents: [{ role: 'user', parts: [{ text: 'hi [[sim usage=10/3000000000]]' }] }] },
      headers: { 'x-vendor-api-key': key },
    });
    await harness.settled();

    expect(answer.status).toBe(200);
    const [row] = await logRowsOf(accountId);
    expect(row).toMatchObject({ output_tokens: 2_147_483_647, cost_micros: '50000' });
    // 10 input tokens at 1 micro and 3e9 output tokens at 2 micros, less the 50,000 captured.
    expect(BigInt(row.overage_micros)).toBe(6_000_000_010n - 50_000n);
    expect(await balanceOf(accountId)).toBe(0n);
  });

  it('refuses an output cap times a candidate count beyond the largest hold with a 400 naming them', async () => {
    const huge = 2 ** 31 - 1;
    const native = await harness.request<{ error: { message: string } }>('POST', NATIVE_GENERATE_PATH, {
      body: {
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        generationConfig: { maxOutputTokens: huge, candidateCount: huge },
      },
      headers: { 'x-vendor-api-key': demo.key },
    });
    const openai = await harness.request<{ error: { message: string } }>('POST', '/v1/chat/completions', {
      body: { model: 'chat-fast', messages: [{ role: 'user', content: 'hi' }], max_tokens: huge, n: huge },
      headers: { authorization: `Bearer ${demo.key}` },
    });

    expect(native.status).toBe(400);
    expect(native.body.error.message).toMatch(/maxOutputTokens|candidateCount/);
    expect(openai.status).toBe(400);
    expect(openai.body.error.message).toMatch(/max_tokens|\bn\b/);
  });
});
