import Redis from 'ioredis';
import { CircuitBreaker } from './circuit-breaker';

describe('CircuitBreaker without Redis', () => {
  // A connection that never connects and refuses every command: any Redis call on the paths below
  // would reject.
  const offline = new Redis({ lazyConnect: true, enableOfflineQueue: false });
  const breaker = new CircuitBreaker(offline, offline, {
    prefix: 'test',
    failureThreshold: 3,
    windowMs: 1000,
    cooldownMs: 1000,
    logger: { warn: () => undefined },
  });

  afterAll(() => offline.disconnect());

  it('answers for a healthy channel and takes its successes without a Redis call', async () => {
    expect(breaker.stateOf('ch_1')).toBe('closed');
    await expect(breaker.isAvailable('ch_1')).resolves.toBe(true);
    await expect(breaker.recordSuccess('ch_1')).resolves.toBeUndefined();
  });

  it('drops failures that are not channel faults without a Redis call', async () => {
    await expect(breaker.recordFailure('ch_1', 'bad_request')).resolves.toBeUndefined();
    await expect(breaker.recordFailure('ch_1', 'content_policy')).resolves.toBeUndefined();
  });

  it('does need Redis to count a channel fault', async () => {
    await expect(breaker.recordFailure('ch_1', 'timeout')).rejects.toThrow();
  });
});
