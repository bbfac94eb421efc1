import { GatewayHarness, type TextDemo } from './gateway-harness';
import { outageStep } from './outage-step';
import { TcpOutageProxy } from './tcp-outage.proxy';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHAT = { model: 'chat-fast', messages: [{ role: 'user', content: 'Hello' }] };
/** How long a step with Redis away may take: the limiter gives up on Redis after GOVERNANCE_REDIS_TIMEOUT_MS. */
const STEP_MS = 20_000;

/**
 * With Redis away, limits fail open (served, logged, counted in gateway_governance_fail_open_total)
 * and budgets still hold: they are enforced from Postgres.
 */
describe('governance through a Redis outage', () => {
  let proxy: TcpOutageProxy;
  let harness: GatewayHarness;
  let demo: TextDemo;

  beforeAll(async () => {
    proxy = await TcpOutageProxy.start(REDIS_URL);
    harness = await GatewayHarness.start({ REDIS_URL: proxy.url(REDIS_URL) });
    demo = await harness.seedTextDemo();
  });
  afterAll(async () => {
    await harness?.close();
    await proxy?.close();
  });

  const chat = (key: string) =>
    harness.request<{ error?: { code: string } }>('POST', '/v1/chat/completions', {
      body: CHAT,
      headers: { authorization: `Bearer ${key}` },
    });

  /** Scraped as Prometheus does: /metrics answers while Redis is away (its queue samplers time out). */
  async function failOpenCount(): Promise<number> {
    const answer = await harness.request('GET', '/metrics');
    expect(answer.status).toBe(200);
    const line = answer.text.split('\n').find((row) => row.startsWith('gateway_governance_fail_open_total'));
    return Number(line?.split(' ').at(-1) ?? 0);
  }

  /** A step taken with Redis away, bounded (outageStep). */
  const step = <T>(name: string, promise: Promise<T>) => outageStep(harness, name, promise, STEP_MS);

  it('serves requests within limits, counts them as failed open, and still enforces budgets', async () => {
    const limited = await harness.createKey(demo.accountId, {
      limits: { requestsPerMinute: 100, concurrentRequests: 5 },
    });
    const budgeted = await harness.createKey(demo.accountId, {
      limits: { requestsPerMinute: 100 },
      budget: { amountMicros: '3000', period: 'total' },
    });
    // Known to the instance (cached) before Redis goes: resolving them needs no Redis then.
    expect((await chat(limited.key)).status).toBe(200);
    expect((await chat(budgeted.key)).status).toBe(200);
    const before = await failOpenCount();

    await proxy.cut();
    try {
      const answers = await step(
        'four requests within the limits',
        Promise.all(Array.from({ length: 4 }, () => chat(limited.key))),
      );
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
      // No figures without Redis: no rate-limit headers rather than made-up ones.
      expect(answers[0].headers.get('x-ratelimit-remaining-requests')).toBeNull();
      expect(await step('a /metrics scrape', failOpenCount())).toBeGreaterThanOrEqual(before + 4);

      // A request holds about 2,000 micros: of several at once, the 3,000 budget admits one.
      const budgetAnswers = await step(
        'six requests against the budget',
        Promise.all(Array.from({ length: 6 }, () => chat(budgeted.key))),
      );
      const refused = budgetAnswers.filter((answer) => answer.status === 402);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      expect(refused[0].body.error?.code).toBe('budget_exceeded');
      expect(harness.logs.some((line) => line.includes('rate limits not checked (fail open)'))).toBe(true);
    } finally {
      await proxy.restore();
    }
  });
});
