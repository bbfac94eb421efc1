import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import Redis from 'ioredis';
import { AuthFailureThrottle, type AuthFailureThrottleOptions } from './auth-failure.throttle';

const REDIS_URL = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');

/** A TCP relay to the test Redis that can stop passing bytes: Redis then looks connected but mute. */
class MutableRedisRelay {
  muted = false;
  private readonly sockets = new Set<Socket>();
  private readonly server: Server = createServer((client) => {
    const upstream = connect(Number(REDIS_URL.port || 6379), REDIS_URL.hostname);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ]) {
      this.sockets.add(from);
      from.on('data', (chunk) => {
        if (!this.muted) to.write(chunk);
      });
      from.on('error', () => to.destroy());
      from.on('close', () => to.destroy());
    }
  });

  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    const { port } = this.server.address() as AddressInfo;
    return `redis://127.0.0.1:${port}${REDIS_URL.pathname}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('AuthFailureThrottle (Redis)', () => {
  const clients: Redis[] = [];
  const warnings: string[] = [];
  const logger = { warn: (_fields: Record<string, unknown>, message: string) => warnings.push(message) };
  let prefix: string;

  beforeEach(() => {
    prefix = `test-throttle-${randomUUID()}`;
    warnings.length = 0;
  });

  afterEach(() => {
    clients.splice(0).forEach((client) => client.disconnect());
  });

  function throttleOver(redis: Redis, options: Partial<AuthFailureThrottleOptions>): AuthFailureThrottle {
    redis.on('error', () => undefined);
    clients.push(redis);
    return new AuthFailureThrottle(redis, { prefix, limit: 3, windowMs: 60_000, logger, ...options });
  }

  async function throttleOn(url: string, options: Partial<AuthFailureThrottleOptions> = {}) {
    const redis = new Redis(url, { maxRetriesPerRequest: null });
    await once(redis, 'ready');
    return throttleOver(redis, options);
  }

  it('throttles an address past the limit, counting its failures on every instance', async () => {
    const instanceA = await throttleOn(REDIS_URL.href);
    const instanceB = await throttleOn(REDIS_URL.href);

    const verdicts = [
      await instanceA.recordFailure('203.0.113.7'),
      await instanceB.recordFailure('203.0.113.7'),
      await instanceA.recordFailure('203.0.113.7'),
      await instanceB.recordFailure('203.0.113.7'),
    ];

    expect(verdicts.slice(0, 3)).toEqual([{ throttled: false }, { throttled: false }, { throttled: false }]);
    expect(verdicts[3]).toEqual({ throttled: true, retryAfterMs: expect.any(Number) });
    const { retryAfterMs } = verdicts[3] as { retryAfterMs: number };
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(await instanceA.recordFailure('203.0.113.8')).toEqual({ throttled: false });
    expect(warnings).toEqual(['client address throttled after repeated authentication failures']);
  });

  it('counts the addresses of one IPv6 /64 together', async () => {
    const throttle = await throttleOn(REDIS_URL.href, { limit: 1 });

    await throttle.recordFailure('2001:db8:0:1::1');

    expect(await throttle.recordFailure('2001:db8:0:1::2')).toMatchObject({ throttled: true });
    expect(await throttle.recordFailure('2001:db8:0:2::1')).toEqual({ throttled: false });
  });

  it('lets an address fail again once its window is over', async () => {
    const throttle = await throttleOn(REDIS_URL.href, { limit: 1, windowMs: 1000 });
    await throttle.recordFailure('203.0.113.9');
    expect(await throttle.recordFailure('203.0.113.9')).toMatchObject({ throttled: true });

    await new Promise((resolve) => setTimeout(resolve, 1100));

    expect(await throttle.recordFailure('203.0.113.9')).toEqual({ throttled: false });
  });

  it('never throttles with a limit of 0', async () => {
    const throttle = await throttleOn(REDIS_URL.href, { limit: 0 });

    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(await throttle.recordFailure('203.0.113.10')).toEqual({ throttled: false });
    }
  });

  it('counts nothing and refuses nobody while Redis is unreachable, with one warning', async () => {
    const throttle = throttleOver(new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: null }), {
      limit: 1,
    });

    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect(await throttle.recordFailure('203.0.113.11')).toEqual({ throttled: false });
    }
    expect(warnings).toEqual(['authentication failures not counted: Redis unavailable']);
  });

  it('answers without waiting for a Redis that stops answering, and keeps throttling the addresses it knows', async () => {
    const relay = new MutableRedisRelay();
    try {
      const throttle = await throttleOn(await relay.start(), { limit: 1, redisTimeoutMs: 100 });
      await throttle.recordFailure('203.0.113.12');
      expect(await throttle.recordFailure('203.0.113.12')).toMatchObject({ throttled: true });

      relay.muted = true;

      expect(await throttle.recordFailure('203.0.113.13')).toEqual({ throttled: false });
      expect(await throttle.recordFailure('203.0.113.12')).toMatchObject({ throttled: true });
      expect(warnings).toContain('authentication failures not counted: Redis unavailable');
    } finally {
      await relay.close();
    }
  });
});
