import Redis from 'ioredis';
import { CircuitBreaker } from './circuit-breaker';

describe('CircuitBreaker without Redis', () => {
  // A connection that never connects and refuses every command: any Redis call on the paths below
  // would reject.
  const offline = new Redis({ lazyConnect: true, enableOfflineQueue: false });
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  const breaker = new CircuitBreaker(offline, offline, {
    prefix: 'test',
    failureThreshold: 3,
    windowMs: 1000,
    cooldownMs: 1000,
    logger: { warn: (fields, message) => warnings.push({ fields, message }) },
  });

  afterAll(() => offline.disconnect());

  it('answers for a healthy channel and takes its successes without a Redis call', async () => {
    expect(breaker.stateOf('ch_1')).toBe('closed');
    expect(breaker.isAvailable('ch_1')).toBe(true);
    await expect(breaker.recordSuccess('ch_1')).resolves.toBeUndefined();
  });

  it('drops failures that are not channel faults without a Redis call', async () => {
    await expect(breaker.recordFailure('ch_1', 'bad_request')).resolves.toBeUndefined();
    await expect(breaker.recordFailure('ch_1', 'content_policy')).resolves.toBeUndefined();
  });

  it('logs a channel fault it cannot count without Redis instead of rejecting (nobody awaits it)', async () => {
    await expect(breaker.recordFailure('ch_1', 'timeout')).resolves.toBeUndefined();
    expect(warnings).toEqual([
      {
        fields: expect.objectContaining({ channelId: 'ch_1' }),
        message: 'circuit failure not recorded: Redis did not take it',
      },
    ]);
    expect(breaker.stateOf('ch_1')).toBe('closed');
  });
});

describe('CircuitBreaker with a half-open circuit and Redis gone', () => {
  const offline = new Redis({ lazyConnect: true, enableOfflineQueue: false });
  const warnings: string[] = [];
  let nowMs = 10_000;
  const breaker = new CircuitBreaker(offline, offline, {
    prefix: 'test',
    failureThreshold: 3,
    windowMs: 1000,
    cooldownMs: 1000,
    logger: { warn: (_fields, message) => warnings.push(message) },
    clock: { now: () => nowMs },
  });

  beforeAll(async () => {
    // start() listens for announcements before it subscribes; subscribing fails offline.
    await expect(breaker.start()).rejects.toThrow();
    offline.emit('message', 'test:circuit:events', JSON.stringify({ channelId: 'ch_1', openUntil: 10_500 }));
  });

  afterAll(async () => {
    await breaker.stop();
    offline.disconnect();
  });

  it('answers at once for an open circuit, then refuses the probe it cannot claim instead of rejecting', async () => {
    expect(breaker.isAvailable('ch_1')).toBe(false);
    expect(breaker.isAvailable('ch_2')).toBe(true);

    nowMs = 11_000;
    expect(breaker.stateOf('ch_1')).toBe('half_open');
    await expect(breaker.isAvailable('ch_1')).resolves.toBe(false);
    expect(warnings).toEqual([
      'circuit probe not claimed: Redis did not answer; the channel stays unavailable',
    ]);
  });

  it('logs a probe success it cannot record instead of rejecting', async () => {
    await expect(breaker.recordSuccess('ch_1')).resolves.toBeUndefined();
    expect(warnings.at(-1)).toBe('circuit success not recorded: Redis did not take it');
    expect(breaker.stateOf('ch_1')).toBe('half_open');
  });
});

describe('CircuitBreaker with a half-open circuit and Redis unreachable', () => {
  /**
   * Asks for a half-open channel over `commands` (its subscriber refuses commands offline) and
   * answers what the probe claim returned and what was logged.
   */
  async function claimProbeOver(commands: Redis, redisTimeoutMs?: number) {
    const subscriber = new Redis({ lazyConnect: true, enableOfflineQueue: false });
    const warnings: Record<string, unknown>[] = [];
    let nowMs = 10_000;
    const breaker = new CircuitBreaker(commands, subscriber, {
      prefix: 'test',
      failureThreshold: 3,
      windowMs: 1000,
      cooldownMs: 1000,
      redisTimeoutMs,
      logger: { warn: (fields) => warnings.push(fields) },
      clock: { now: () => nowMs },
    });
    await expect(breaker.start()).rejects.toThrow();
    subscriber.emit(
      'message',
      'test:circuit:events',
      JSON.stringify({ channelId: 'ch_1', openUntil: 10_500 }),
    );
    nowMs = 11_000;
    const available = await breaker.isAvailable('ch_1');
    await breaker.stop();
    subscriber.disconnect();
    return { available, warnings };
  }

  it('refuses the probe claim at once on a connection that would queue it until Redis is back', async () => {
    // Built as the gateway's connections are: commands sent while disconnected wait in its offline
    // queue, and it retries for ever.
    const unreachable = new Redis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: null });
    try {
      expect(await claimProbeOver(unreachable)).toEqual({
        available: false,
        warnings: [{ channelId: 'ch_1', reason: 'Redis is wait' }],
      });
    } finally {
      unreachable.disconnect();
    }
  });

  it('gives up on the probe claim after redisTimeoutMs when Redis does not answer', async () => {
    // Connected, but the command is never answered (a stalled server).
    const stalled = { status: 'ready', set: () => new Promise<never>(() => undefined) };
    expect(await claimProbeOver(stalled as unknown as Redis, 50)).toEqual({
      available: false,
      warnings: [{ channelId: 'ch_1', reason: 'Redis did not answer within 50 ms' }],
    });
  });
});
