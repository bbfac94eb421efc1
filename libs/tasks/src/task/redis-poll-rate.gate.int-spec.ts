import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import Redis from 'ioredis';
import { pollRateKey, RedisPollRateGate } from './redis-poll-rate.gate';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('RedisPollRateGate (Redis)', () => {
  let redis: Redis;
  let prefix: string;
  const warnings: string[] = [];
  const logger = { warn: (_fields: Record<string, unknown>, message: string) => warnings.push(message) };

  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });

  beforeEach(() => {
    prefix = `test-poll-rate-${randomUUID()}`;
    warnings.length = 0;
  });

  afterAll(async () => {
    const keys = await redis.keys('test-poll-rate-*');
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('lets one second of polls through at once, then spaces the rest one interval apart', async () => {
    const gate = new RedisPollRateGate(() => redis, prefix, logger);

    const waits: number[] = [];
    for (let call = 0; call < 6; call += 1) waits.push(await gate.reserve('chan_a', 2));

    // 2 per second: a burst of two, then turns 500 ms apart (less the little time the calls took).
    expect(waits.slice(0, 2)).toEqual([0, 0]);
    for (let index = 2; index < waits.length; index += 1) {
      const gap = waits[index] - waits[index - 1];
      expect(gap).toBeGreaterThan(index === 2 ? 0 : 300);
      expect(gap).toBeLessThanOrEqual(500);
    }
    expect(waits[5]).toBeGreaterThan(1_200);
    expect(waits[5]).toBeLessThanOrEqual(2_000);
  });

  it('shares one schedule between gates (workers) and keeps channels apart', async () => {
    const workerOne = new RedisPollRateGate(() => redis, prefix, logger);
    const otherConnection = new Redis(REDIS_URL);
    const workerTwo = new RedisPollRateGate(() => otherConnection, prefix, logger);

    expect(await workerOne.reserve('chan_b', 0.5)).toBe(0);
    const second = await workerTwo.reserve('chan_b', 0.5);
    expect(second).toBeGreaterThan(1_500);
    expect(second).toBeLessThanOrEqual(2_000);
    expect(await workerTwo.reserve('chan_c', 0.5)).toBe(0);
    otherConnection.disconnect();
  });

  it('keeps its key under the prefix, tagged by channel, and lets it expire', async () => {
    const gate = new RedisPollRateGate(() => redis, prefix, logger);
    await gate.reserve('chan_d', 1);

    const key = pollRateKey(prefix, 'chan_d');
    expect(key).toBe(`${prefix}:poll-rate:{chan_d}`);
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3_000);
  });

  it('refuses nothing without Redis: the poll goes ahead and the failure is logged', async () => {
    const deaf = new Redis('redis://127.0.0.1:9', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    const gate = new RedisPollRateGate(() => deaf, prefix, logger);

    expect(await gate.reserve('chan_e', 1)).toBe(0);
    expect(warnings).toEqual(['poll-rate gate not reached; polling now']);
    // Refused and never retried, the client ends by itself. disconnect() would only arm ioredis's 2 s
    // timer for a socket that has already closed: in one run, that timer kept the Jest worker alive after
    // its last file.
    if (deaf.status !== 'end') await once(deaf, 'end');
  });

  it('takes no turn for a ceiling that is not a positive number', async () => {
    const gate = new RedisPollRateGate(() => redis, prefix, logger);
    expect(await gate.reserve('chan_f', 0)).toBe(0);
    expect(await gate.reserve('chan_f', Number.NaN)).toBe(0);
    expect(await redis.exists(pollRateKey(prefix, 'chan_f'))).toBe(0);
  });
});
