import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { CircuitBreaker, type CircuitBreakerOptions } from './circuit-breaker';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHANNEL = 'ch_main';
const silentLogger = { warn: () => undefined };

async function eventually(check: () => Promise<boolean> | boolean, withinMs = 1000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('CircuitBreaker (two instances on Redis)', () => {
  const connections: Redis[] = [];
  const breakers: CircuitBreaker[] = [];
  let prefix: string;
  let now: number;
  const clock = { now: () => now };

  beforeEach(() => {
    prefix = `test:${randomUUID()}`;
    now = Date.now();
  });

  afterEach(async () => {
    await Promise.all(breakers.splice(0).map((breaker) => breaker.stop()));
    const [cleaner] = connections;
    const keys = await cleaner.keys(`${prefix}:*`);
    if (keys.length > 0) await cleaner.del(...keys);
    connections.splice(0).forEach((connection) => connection.disconnect());
  });

  async function startBreaker(options: Partial<CircuitBreakerOptions> = {}): Promise<CircuitBreaker> {
    const redis = new Redis(REDIS_URL);
    const subscriber = new Redis(REDIS_URL);
    connections.push(redis, subscriber);
    const breaker = new CircuitBreaker(redis, subscriber, {
      prefix,
      failureThreshold: 3,
      windowMs: 10_000,
      cooldownMs: 5000,
      logger: silentLogger,
      clock,
      ...options,
    });
    breakers.push(breaker);
    await breaker.start();
    return breaker;
  }

  async function failTimes(breaker: CircuitBreaker, times: number): Promise<void> {
    for (let i = 0; i < times; i += 1) await breaker.recordFailure(CHANNEL, 'overload');
  }

  it('opens on both instances when one instance reaches the failure threshold', async () => {
    const instanceA = await startBreaker();
    const instanceB = await startBreaker();

    await failTimes(instanceA, 2);
    expect(await instanceA.isAvailable(CHANNEL)).toBe(true);
    await instanceA.recordFailure(CHANNEL, 'timeout');

    expect(await instanceA.isAvailable(CHANNEL)).toBe(false);
    await eventually(async () => !(await instanceB.isAvailable(CHANNEL)));
    expect(instanceB.stateOf(CHANNEL)).toBe('open');
    expect(await instanceA.isAvailable('ch_other')).toBe(true);
  });

  it('counts failures reported by different instances together', async () => {
    const instanceA = await startBreaker();
    const instanceB = await startBreaker();

    await failTimes(instanceA, 2);
    await failTimes(instanceB, 1);

    expect(instanceB.stateOf(CHANNEL)).toBe('open');
    await eventually(() => instanceA.stateOf(CHANNEL) === 'open');
  });

  it('ignores failures that say nothing about the channel', async () => {
    const instanceA = await startBreaker();

    for (let i = 0; i < 5; i += 1) {
      await instanceA.recordFailure(CHANNEL, 'bad_request');
      await instanceA.recordFailure(CHANNEL, 'content_policy');
    }

    expect(await instanceA.isAvailable(CHANNEL)).toBe(true);
  });

  it('forgets failures older than the window', async () => {
    const instanceA = await startBreaker({ windowMs: 150 });

    await failTimes(instanceA, 2);
    await new Promise((resolve) => setTimeout(resolve, 250));
    await failTimes(instanceA, 2);

    expect(await instanceA.isAvailable(CHANNEL)).toBe(true);
  });

  it('lets exactly one of the two instances probe after the cool-down', async () => {
    const instanceA = await startBreaker();
    const instanceB = await startBreaker();
    await failTimes(instanceA, 3);
    await eventually(() => instanceB.stateOf(CHANNEL) === 'open');

    now += 4999;
    expect(await instanceA.isAvailable(CHANNEL)).toBe(false);
    now += 1;
    const answers = await Promise.all([
      instanceA.isAvailable(CHANNEL),
      instanceB.isAvailable(CHANNEL),
      instanceA.isAvailable(CHANNEL),
      instanceB.isAvailable(CHANNEL),
    ]);

    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(instanceA.stateOf(CHANNEL)).toBe('half_open');
  });

  it('closes the circuit on both instances when the probe succeeds', async () => {
    const instanceA = await startBreaker();
    const instanceB = await startBreaker();
    await failTimes(instanceA, 3);
    await eventually(() => instanceB.stateOf(CHANNEL) === 'open');
    now += 5000;
    const [probeByA, probeByB] = await Promise.all([
      instanceA.isAvailable(CHANNEL),
      instanceB.isAvailable(CHANNEL),
    ]);
    const [prober, other] = probeByA ? [instanceA, instanceB] : [instanceB, instanceA];
    expect(probeByA !== probeByB).toBe(true);

    await prober.recordSuccess(CHANNEL);

    expect(await prober.isAvailable(CHANNEL)).toBe(true);
    await eventually(() => other.stateOf(CHANNEL) === 'closed');
    expect(await other.isAvailable(CHANNEL)).toBe(true);
  });

  it('starts counting afresh after closing', async () => {
    const instanceA = await startBreaker();
    await failTimes(instanceA, 3);
    now += 5000;
    expect(await instanceA.isAvailable(CHANNEL)).toBe(true);
    await instanceA.recordSuccess(CHANNEL);

    await failTimes(instanceA, 2);

    expect(await instanceA.isAvailable(CHANNEL)).toBe(true);
  });

  it('opens again on both instances when the probe fails, for another cool-down', async () => {
    const instanceA = await startBreaker();
    const instanceB = await startBreaker();
    await failTimes(instanceA, 3);
    await eventually(() => instanceB.stateOf(CHANNEL) === 'open');
    now += 5000;
    expect(await instanceB.isAvailable(CHANNEL)).toBe(true);

    await instanceB.recordFailure(CHANNEL, 'rate_limit');

    expect(instanceB.stateOf(CHANNEL)).toBe('open');
    await eventually(() => instanceA.stateOf(CHANNEL) === 'open');
    now += 4999;
    expect(await instanceA.isAvailable(CHANNEL)).toBe(false);
    now += 1;
    const answers = await Promise.all([instanceA.isAvailable(CHANNEL), instanceB.isAvailable(CHANNEL)]);
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it('ignores late results that arrive while the circuit cools down', async () => {
    const instanceA = await startBreaker();
    await failTimes(instanceA, 3);

    now += 1000;
    await instanceA.recordSuccess(CHANNEL);
    await instanceA.recordFailure(CHANNEL, 'timeout');
    now += 4000;

    expect(instanceA.stateOf(CHANNEL)).toBe('half_open');
  });

  it('frees the probe slot when the prober never reports', async () => {
    const instanceA = await startBreaker({ probeTimeoutMs: 100 });
    const instanceB = await startBreaker({ probeTimeoutMs: 100 });
    await failTimes(instanceA, 3);
    await eventually(() => instanceB.stateOf(CHANNEL) === 'open');
    now += 5000;
    expect(await instanceA.isAvailable(CHANNEL)).toBe(true);
    expect(await instanceB.isAvailable(CHANNEL)).toBe(false);

    await new Promise((resolve) => setTimeout(resolve, 150));

    expect(await instanceB.isAvailable(CHANNEL)).toBe(true);
  });

  it('learns circuits opened before it started, and missed announcements through the periodic sync', async () => {
    const instanceA = await startBreaker();
    await failTimes(instanceA, 3);

    const lateInstance = await startBreaker();
    expect(lateInstance.stateOf(CHANNEL)).toBe('open');

    // An instance that is not subscribed to the events relies on its periodic re-read alone.
    const deafRedis = new Redis(REDIS_URL);
    const deafSubscriber = new Redis(REDIS_URL);
    connections.push(deafRedis, deafSubscriber);
    const deaf = new CircuitBreaker(deafRedis, deafSubscriber, {
      prefix,
      failureThreshold: 3,
      windowMs: 10_000,
      cooldownMs: 5000,
      syncIntervalMs: 50,
      logger: silentLogger,
      clock,
    });
    breakers.push(deaf);
    await deaf.start();
    await deafSubscriber.unsubscribe();
    now += 5000;
    await instanceA.isAvailable(CHANNEL);
    await instanceA.recordSuccess(CHANNEL);

    await eventually(() => deaf.stateOf(CHANNEL) === 'closed', 500);
  });
});
