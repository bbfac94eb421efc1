import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import pino from 'pino';
import { keyGovernanceOf, type GovernanceColumns, type ResolvedKey } from '@gateway/auth';
import { GovernanceReservations, keyScope, SettlementService } from '@gateway/billing';
import { createPgPool } from '@gateway/db';
import { createMetrics, type GatewayMetrics } from '@gateway/observability';
import { createTestDatabase, type TestDatabase } from '@gateway/testing';
import type { Pool } from 'pg';
import { GatewayError } from '@gateway/errors';
import type { GovernanceTicket, GovernedRequest } from '../pipeline/request-governance';
import { GovernanceRefusalLog } from './governance-refusal-log';
import { KeyGovernanceService } from './key-governance.service';
import { RedisLimiter } from './redis-limiter';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** 10 s into a UTC minute, so that a test's requests share one window. */
const T0 = Date.parse('2026-11-29T10:00:10Z');

interface AwaitedGovernance {
  admit(request: GovernedRequest): Promise<GovernanceTicket>;
}

describe('KeyGovernanceService (Redis and Postgres)', () => {
  let database: TestDatabase;
  let pool: Pool;
  let redis: Redis;
  let metrics: GatewayMetrics;
  let now = T0;
  let counter = 0;

  /** A Redis prefix of its own, so that no test sees another's counters. */
  const freshPrefix = () => `govtest-${randomBytes(4).toString('hex')}`;

  /**
   * The limiter of these tests: a lease of a minute, the test's clock, and a bound on Redis's answer
   * that a loaded machine cannot reach. With the gateway's 250 ms, a script answer that came late
   * under the suite's load failed open, as designed, and admitted a request past the limit (1,001 of
   * 1,000 in one .ci/run): these tests count exactness, and the bound has tests of its own
   * (circuit-breaker.spec, governance-redis-outage.int-spec). A disconnected Redis is refused at once.
   */
  function limiterOn(connection: Redis, prefix = freshPrefix()): RedisLimiter {
    return new RedisLimiter(connection, {
      prefix,
      leaseMs: 60_000,
      timeoutMs: 10_000,
      clock: { now: () => now },
    });
  }

  /**
   * The service as the pipeline awaits it: `admit` answers at once when nothing needs a round trip
   * (and throws a refusal decided so), a promise otherwise; awaited, both read as a promise.
   */
  function governanceOn(connection: Redis, prefix = freshPrefix()): AwaitedGovernance {
    const logger = pino({ level: 'silent' });
    const reservations = new GovernanceReservations(pool);
    const service = new KeyGovernanceService(
      limiterOn(connection, prefix),
      reservations,
      new GovernanceRefusalLog(new SettlementService(pool), metrics, logger),
      metrics,
      logger,
      {
        clock: { now: () => now },
        requestReservationMs: 60_000,
        taskReservationMs: 60_000,
        concurrencyRetryAfterMs: 1000,
        taskRetryAfterMs: 5000,
      },
    );
    return { admit: async (governed) => service.admit(governed) };
  }

  let governance: AwaitedGovernance;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPgPool(database.url, 20);
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    // A connection still connecting counts as unavailable (fail open): start once it is ready.
    await redis.ping();
    metrics = createMetrics();
    governance = governanceOn(redis);
  });
  afterAll(async () => {
    redis?.disconnect();
    await pool?.end();
    await database?.drop();
  });
  beforeEach(() => {
    now = T0;
  });

  function keyWith(columns: GovernanceColumns, accountId?: string): ResolvedKey {
    counter += 1;
    return {
      id: `key_${counter}`,
      accountId: accountId ?? `acct_${counter}`,
      prefix: 'gk_test',
      allowedModels: null,
      expiresAt: null,
      governance: keyGovernanceOf(columns),
    };
  }

  function request(key: ResolvedKey, extra: Partial<GovernedRequest> = {}): GovernedRequest {
    counter += 1;
    return {
      key,
      clientIp: '127.0.0.1',
      requestId: `req_${counter}`,
      route: '/v1/chat/completions',
      model: 'chat-fast',
      holdMicros: 1000n,
      createsTask: false,
      ...extra,
    };
  }

  async function outcomes(key: ResolvedKey, count: number, extra: Partial<GovernedRequest> = {}) {
    return Promise.all(
      Array.from({ length: count }, () =>
        governance.admit(request(key, extra)).then(
          (ticket) => ({ admitted: true as const, ticket }),
          (error: unknown) => ({ admitted: false as const, error: error as GatewayError }),
        ),
      ),
    );
  }

  it('a key without any governance is admitted with no headers and costs nothing', async () => {
    const key = keyWith({});
    expect(key.governance).toBeNull();
    const ticket = await governance.admit(request(key));
    expect(ticket.headers).toEqual({});
  });

  it('requests per minute: admits exactly the limit, refuses the rest with 429, Retry-After and headers', async () => {
    const key = keyWith({ keyLimits: { requestsPerMinute: 5 } });
    const results = await outcomes(key, 12);
    const admitted = results.filter((result) => result.admitted);
    const refused = results.flatMap((result) => (result.admitted ? [] : [result.error]));
    expect(admitted).toHaveLength(5);
    expect(refused).toHaveLength(7);
    for (const error of refused) {
      expect(error).toBeInstanceOf(GatewayError);
      expect(error.code).toBe('rate_limit_exceeded');
      expect(error.httpStatus).toBe(429);
      expect(error.message).toContain('requestsPerMinute');
      expect(error.options.retryAfterMs).toBe(50_000);
      expect(error.options.headers).toEqual({
        'x-ratelimit-limit-requests': '5',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': '50s',
      });
    }
    const remaining = admitted
      .map((result) => (result.admitted ? result.ticket.headers['x-ratelimit-remaining-requests'] : ''))
      .sort();
    expect(remaining).toEqual(['0', '1', '2', '3', '4']);
    // The next minute starts afresh.
    now = T0 + 60_000;
    await expect(governance.admit(request(key))).resolves.toBeDefined();
  });

  it('an account limit counts all its keys together', async () => {
    const accountId = `acct_shared_${counter}`;
    const columns = { accountLimits: { requestsPerMinute: 4 } };
    const first = keyWith(columns, accountId);
    const second = keyWith(columns, accountId);
    const results = [...(await outcomes(first, 3)), ...(await outcomes(second, 3))];
    expect(results.filter((result) => result.admitted)).toHaveLength(4);
    const refusal = results.find((result) => !result.admitted);
    expect(refusal && !refusal.admitted && refusal.error.message).toContain(
      "the account's requestsPerMinute",
    );
  });

  it('tokens per minute: counts the estimate, then corrects it with the reported usage', async () => {
    const key = keyWith({ keyLimits: { tokensPerMinute: 1000 } });
    const first = await governance.admit(request(key, { estimatedTokens: 600 }));
    expect(first.headers).toMatchObject({
      'x-ratelimit-limit-tokens': '1000',
      'x-ratelimit-remaining-tokens': '400',
    });
    await expect(governance.admit(request(key, { estimatedTokens: 600 }))).rejects.toMatchObject({
      code: 'rate_limit_exceeded',
      message: expect.stringContaining('tokensPerMinute'),
    });
    // It used 100 tokens: 500 of the estimate go back, and a 600-token request fits again.
    first.settle({ tokens: 100, costMicros: 10n });
    await waitUntil(
      async () =>
        (await governance.admit(request(key, { estimatedTokens: 1 }))).headers[
          'x-ratelimit-remaining-tokens'
        ] !== undefined,
    );
    const again = await governance.admit(request(key, { estimatedTokens: 600 }));
    expect(Number(again.headers['x-ratelimit-remaining-tokens'])).toBeLessThanOrEqual(300);
  });

  it('concurrent requests: admits the limit in flight, and frees a slot when a request settles', async () => {
    const key = keyWith({ keyLimits: { concurrentRequests: 3 } });
    const results = await outcomes(key, 8);
    const tickets = results.flatMap((result) => (result.admitted ? [result.ticket] : []));
    expect(tickets).toHaveLength(3);
    const refusal = results.find((result) => !result.admitted);
    expect(refusal && !refusal.admitted && refusal.error.options.retryAfterMs).toBe(1000);
    tickets[0].settle({ costMicros: 0n });
    await waitUntil(async () => {
      try {
        (await governance.admit(request(key))).settle({ costMicros: 0n });
        return true;
      } catch {
        return false;
      }
    });
  });

  /** A governance over its own connection, and the script calls that connection put on the wire. */
  async function countedGovernance(prefix?: string): Promise<{
    measured: AwaitedGovernance;
    calls: () => number;
    connection: Redis;
  }> {
    const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    await connection.ping();
    let scriptCalls = 0;
    const send = connection.sendCommand.bind(connection);
    connection.sendCommand = ((command: { name: string }, ...rest: unknown[]) => {
      if (command.name === 'evalsha' || command.name === 'eval') scriptCalls += 1;
      return (send as (...args: unknown[]) => unknown)(command, ...rest);
    }) as typeof connection.sendCommand;
    return { measured: governanceOn(connection, prefix), calls: () => scriptCalls, connection };
  }

  it('far from its limits, a key is admitted from the allowance its instance took: no round trip per request', async () => {
    const { measured, calls, connection } = await countedGovernance();
    const key = keyWith({
      keyLimits: { requestsPerMinute: 10_000, tokensPerMinute: 1_000_000, concurrentRequests: 100 },
    });
    for (let index = 0; index < 20; index += 1) {
      const ticket = await measured.admit(request(key, { estimatedTokens: 100 }));
      expect(ticket.headers['x-ratelimit-remaining-requests']).toBe(String(10_000 - index - 1));
      ticket.settle({ costMicros: 0n, tokens: 40 });
    }
    // The first admission took the allowance; the refunds of the reported usage stay in it.
    expect(calls()).toBe(1);
    const ticket = await measured.admit(request(key, { estimatedTokens: 1 }));
    // What the headers say is exact for this instance: 20 requests' reported usage and this estimate.
    expect(ticket.headers['x-ratelimit-remaining-tokens']).toBe(String(1_000_000 - 20 * 40 - 1));
    ticket.settle({ costMicros: 0n, tokens: 1 });
    connection.disconnect();
  });

  it('far from its limits, the next allowance is taken before the last runs out: only the first request waits', async () => {
    const { calls, connection } = await countedGovernance();
    const limiter = limiterOn(connection);
    const scope = { kind: 'key' as const, id: 'key_refill', limits: { requestsPerMinute: 100_000 } };
    const limitRequest = { accountId: 'acct_refill', scopes: [scope], tokens: 0, now };
    let waited = 0;
    for (let index = 0; index < 300; index += 1) {
      const verdict = limiter.admit(limitRequest);
      if (verdict instanceof Promise) waited += 1;
      expect((await verdict).kind).toBe('admitted');
      // What a request's upstream call takes: time for a refill under way to land.
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(waited).toBe(1);
    // 300 requests from allowances of at most 64: several refills, none of them waited for.
    expect(calls()).toBeGreaterThanOrEqual(5);
    // Exact: once this instance gives back what it holds, Redis has counted the 300 and no more.
    await limiter.beforeApplicationShutdown();
    expect((await limiter.figuresOf('acct_refill', scope, now))?.requests).toBe(300);
    connection.disconnect();
  });

  it('while Redis is down, what an allowance covers is admitted with its headers; the rest fails open', async () => {
    const { measured, connection } = await countedGovernance();
    const key = keyWith({ keyLimits: { requestsPerMinute: 10_000 } });
    (await measured.admit(request(key))).settle({ costMicros: 0n });
    connection.disconnect();
    const failOpen = async () => (await metrics.governanceFailOpen.get()).values[0]?.value ?? 0;
    const before = await failOpen();

    const covered = await measured.admit(request(key));
    expect(covered.headers['x-ratelimit-remaining-requests']).toBe(String(10_000 - 2));
    expect(await failOpen()).toBe(before);

    const other = keyWith({ keyLimits: { requestsPerMinute: 10_000 } });
    const uncovered = await measured.admit(request(other));
    expect(uncovered.headers).toEqual({});
    expect(await failOpen()).toBe(before + 1);
  });

  it('near its limits, every request is counted in Redis: a slot and tokens freed on one instance serve another', async () => {
    const prefix = freshPrefix();
    const first = await countedGovernance(prefix);
    const second = await countedGovernance(prefix);
    const key = keyWith({ keyLimits: { concurrentRequests: 1, tokensPerMinute: 1000 } });
    const ticket = await first.measured.admit(request(key, { estimatedTokens: 600 }));
    await expect(second.measured.admit(request(key, { estimatedTokens: 10 }))).rejects.toMatchObject({
      message: expect.stringContaining('concurrentRequests'),
    });
    // The slot and 500 of the 600 tokens go back to Redis within a few milliseconds.
    ticket.settle({ costMicros: 0n, tokens: 100 });
    await waitUntil(async () => {
      try {
        (await second.measured.admit(request(key, { estimatedTokens: 600 }))).settle({
          costMicros: 0n,
          tokens: 600,
        });
        return true;
      } catch {
        return false;
      }
    });
    // 100 + 600 reported, and whatever the first instance still holds: at most 1/16 of what remained.
    await expect(second.measured.admit(request(key, { estimatedTokens: 300 }))).rejects.toMatchObject({
      message: expect.stringContaining('tokensPerMinute'),
    });
    first.connection.disconnect();
    second.connection.disconnect();
  });

  it('allowances never admit past a limit, and none is left unused while both instances keep asking', async () => {
    const prefix = freshPrefix();
    const first = await countedGovernance(prefix);
    const second = await countedGovernance(prefix);
    const key = keyWith({ keyLimits: { requestsPerMinute: 1000 } });
    const admitted = [0, 0];
    // 1,500 requests: every third to the second instance, the rest to the first.
    for (let index = 0; index < 1500; index += 1) {
      const instance = index % 3 === 2 ? 1 : 0;
      try {
        await (instance === 0 ? first : second).measured.admit(request(key));
        admitted[instance] += 1;
      } catch (error) {
        expect(error).toMatchObject({ code: 'rate_limit_exceeded' });
      }
    }
    expect(admitted[0] + admitted[1]).toBe(1000);
    // Both were served, and the allowances saved most round trips of the admitted requests (each of
    // the 500 refusals asks Redis: an allowance never refuses).
    expect(Math.min(...admitted)).toBeGreaterThan(200);
    expect(first.calls() + second.calls() - 500).toBeLessThan(1000 / 4);
    first.connection.disconnect();
    second.connection.disconnect();
  });

  it("an instance that stops receiving a scope's requests gives its allowance back within a tick", async () => {
    const prefix = freshPrefix();
    const first = await countedGovernance(prefix);
    const second = await countedGovernance(prefix);
    const key = keyWith({ keyLimits: { requestsPerMinute: 1000 } });
    // The first instance's one request takes an allowance of 1/16 of the rest: 62 requests.
    await first.measured.admit(request(key));
    let admitted = 1;
    const admitOnSecond = async (): Promise<boolean> => {
      try {
        await second.measured.admit(request(key));
        admitted += 1;
        return true;
      } catch {
        return false;
      }
    };
    while (await admitOnSecond());
    expect(admitted).toBe(1000 - 62);
    // Within a tick (1 s) without a request there, the first instance gives its 62 back.
    await waitUntil(async () => {
      while (await admitOnSecond());
      return admitted === 1000;
    });
    expect(await admitOnSecond()).toBe(false);
    expect(admitted).toBe(1000);
    first.connection.disconnect();
    second.connection.disconnect();
  });

  it('a release still waiting is sent when the gateway shuts down', async () => {
    const prefix = freshPrefix();
    const limiter = limiterOn(redis, prefix);
    const scope = { kind: 'key' as const, id: 'key_shutdown', limits: { concurrentRequests: 1 } };
    const limitRequest = {
      accountId: 'acct_shutdown',
      scopes: [scope],
      tokens: 0,
      now,
    };
    expect((await limiter.admit(limitRequest)).kind).toBe('admitted');
    const leases = `${prefix}:gov:{acct_shutdown}:k:key_shutdown:inflight`;
    expect(await redis.zcard(leases)).toBe(1);
    limiter.release(limitRequest, 0);
    await limiter.beforeApplicationShutdown();
    expect(await redis.zcard(leases)).toBe(0);
  });

  it('a slot of an instance that died frees itself when its lease expires', async () => {
    const key = keyWith({ keyLimits: { concurrentRequests: 1 } });
    await governance.admit(request(key));
    await expect(governance.admit(request(key))).rejects.toMatchObject({ code: 'rate_limit_exceeded' });
    now = T0 + 60_001;
    await expect(governance.admit(request(key))).resolves.toBeDefined();
  });

  it('outstanding tasks: exact under a burst of task creations, freed by the task settlement', async () => {
    const key = keyWith({ keyLimits: { outstandingTasks: 2 }, accountLimits: { outstandingTasks: 10 } });
    const results = await outcomes(key, 10, { createsTask: true });
    expect(results.filter((result) => result.admitted)).toHaveLength(2);
    const refusal = results.find((result) => !result.admitted);
    expect(refusal && !refusal.admitted && refusal.error).toMatchObject({
      code: 'rate_limit_exceeded',
      message: expect.stringContaining('outstandingTasks'),
    });
    // Requests that create no task are not held back by the task limit.
    await expect(governance.admit(request(key))).resolves.toBeDefined();
    // A request that failed before creating its task gives its slot back at once.
    const ticket = results.find((result) => result.admitted);
    if (ticket?.admitted) ticket.ticket.settle({ costMicros: 0n });
    await waitUntil(
      async () => (await new GovernanceReservations(pool).outstandingTasks(keyScope(key.id))) === 1,
    );
  });

  it('budgets: exact under 50 concurrent requests, captures beyond the estimate count, the day resets', async () => {
    const key = keyWith({ keyBudgetMicros: '10000', keyBudgetPeriod: 'day' });
    const results = await outcomes(key, 50, { holdMicros: 1000n });
    expect(results.filter((result) => result.admitted)).toHaveLength(10);
    const refusal = results.find((result) => !result.admitted);
    expect(refusal && !refusal.admitted && refusal.error).toMatchObject({
      code: 'budget_exceeded',
      httpStatus: 402,
      message: expect.stringContaining('daily budget of 10000 micros'),
    });
    expect(refusal && !refusal.admitted && refusal.error.message).toContain('2026-11-30T00:00:00.000Z');

    const other = keyWith({ keyBudgetMicros: '5000', keyBudgetPeriod: 'day' });
    const ticket = await governance.admit(request(other, { holdMicros: 1000n }));
    ticket.settle({ costMicros: 4500n });
    await waitUntil(async () => {
      try {
        (await governance.admit(request(other, { holdMicros: 1000n }))).settle({ costMicros: 0n });
        return false;
      } catch (error) {
        return (error as GatewayError).code === 'budget_exceeded';
      }
    });
    now = Date.parse('2026-11-30T00:00:01Z');
    await expect(governance.admit(request(other, { holdMicros: 1000n }))).resolves.toBeDefined();
  });

  it('an account budget applies across its keys beside each key budget', async () => {
    const accountId = `acct_budget_${counter}`;
    const columns = {
      keyBudgetMicros: '3000',
      keyBudgetPeriod: 'week',
      accountBudgetMicros: '4000',
      accountBudgetPeriod: 'month',
    };
    const first = keyWith(columns, accountId);
    const second = keyWith(columns, accountId);
    expect((await outcomes(first, 5)).filter((result) => result.admitted)).toHaveLength(3);
    const results = await outcomes(second, 5);
    expect(results.filter((result) => result.admitted)).toHaveLength(1);
    const refusal = results.find((result) => !result.admitted);
    expect(refusal && !refusal.admitted && refusal.error.message).toContain("the account's monthly budget");
  });

  it('an address outside the allow-list is refused with 403 ip_not_allowed', async () => {
    const key = keyWith({ allowedIps: ['10.0.0.0/8', '2001:db8::/32'] });
    await expect(governance.admit(request(key, { clientIp: '127.0.0.1' }))).rejects.toMatchObject({
      code: 'ip_not_allowed',
      httpStatus: 403,
    });
    await expect(governance.admit(request(key, { clientIp: '10.1.2.3' }))).resolves.toBeDefined();
    await expect(governance.admit(request(key, { clientIp: '2001:db8::9' }))).resolves.toBeDefined();
  });

  it('fails open when Redis is unreachable, counted, while budgets still hold', async () => {
    const unreachable = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: null,
      lazyConnect: true,
      // Its socket closed when it was refused, so disconnect() would wait out ioredis' 2 s for a close
      // that already came, and keep the Jest worker alive past the run.
      disconnectTimeout: 10,
    });
    unreachable.on('error', () => undefined);
    void unreachable.connect().catch(() => undefined);
    const cut = governanceOn(unreachable);
    const before = (await metrics.governanceFailOpen.get()).values[0]?.value ?? 0;
    const key = keyWith({
      keyLimits: { requestsPerMinute: 1 },
      keyBudgetMicros: '2000',
      keyBudgetPeriod: 'total',
    });
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        cut.admit(request(key)).then(
          () => 'admitted',
          (error: GatewayError) => error.code,
        ),
      ),
    );
    expect(results.sort()).toEqual(['admitted', 'admitted', 'budget_exceeded', 'budget_exceeded']);
    const after = (await metrics.governanceFailOpen.get()).values[0]?.value ?? 0;
    expect(after - before).toBe(4);
    unreachable.disconnect();
  });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
