import { randomUUID } from 'node:crypto';
import { loadConfig, type GatewayConfig } from '@gateway/config';
import { createRedisConnection, type RedisConnection } from '@gateway/redis';
import { CircuitBreaker } from '@gateway/routing';
import { RedisSentinelProcess, SENTINEL_MASTER_NAME, waitFor } from '@gateway/testing';
import { Queue, Worker } from 'bullmq';

const silentLogger = { warn: () => undefined };

/**
 * The gateway's Redis connections on a primary watched by a Sentinel (REDIS_SENTINELS): commands,
 * scripts, pub/sub and BullMQ reach whichever server the Sentinel names primary, before and after it
 * promotes the replica of a killed primary.
 */
describe('the Redis users on a Sentinel-watched primary', () => {
  let sentinel: RedisSentinelProcess;
  let config: GatewayConfig;
  const connections: RedisConnection[] = [];

  const connect = (): RedisConnection => {
    const connection = createRedisConnection(config.redis);
    connection.on('error', () => undefined);
    connections.push(connection);
    return connection;
  };

  beforeAll(async () => {
    sentinel = await RedisSentinelProcess.start();
    config = loadConfig({
      MASTER_KEY: 'ab'.repeat(32),
      ADMIN_API_ENABLED: 'false',
      REDIS_SENTINELS: sentinel.sentinels,
      REDIS_SENTINEL_MASTER: SENTINEL_MASTER_NAME,
      REDIS_PREFIX: `sentinel-${randomUUID().slice(0, 8)}`,
    });
  }, 30_000);

  afterAll(async () => {
    for (const connection of connections) connection.disconnect();
    await sentinel?.stop();
  });

  async function runJobs(queueName: string): Promise<void> {
    const queue = new Queue(queueName, { connection: connect(), prefix: config.queuePrefix });
    const done = new Set<string>();
    const worker = new Worker(queueName, async (job) => void done.add(String(job.id)), {
      connection: connect(),
      prefix: config.queuePrefix,
    });
    worker.on('error', () => undefined);
    try {
      await queue.addBulk(
        Array.from({ length: 5 }, (_, index) => ({ name: 'step', data: {}, opts: { jobId: `j${index}` } })),
      );
      await waitFor(async () => done.size === 5, 15_000);
    } finally {
      await worker.close();
      await queue.close();
    }
  }

  it('follows the primary the Sentinel names, through a failover', async () => {
    expect(config.redis.kind).toBe('sentinel');
    const commands = connect();
    const subscriber = connect();
    const heard: string[] = [];
    subscriber.on('message', (_channel: string, message: string) => heard.push(message));
    await subscriber.subscribe(`${config.redisPrefix}:announcements`);
    const breaker = new CircuitBreaker(connect(), connect(), {
      prefix: config.redisPrefix,
      failureThreshold: 1,
      windowMs: 10_000,
      cooldownMs: 60_000,
      logger: silentLogger,
    });
    await breaker.start();
    await commands.set(`${config.redisPrefix}:marker`, 'before');
    await runJobs('sentinel-steps');

    const failoverMs = await sentinel.killPrimary();

    expect(failoverMs).toBeGreaterThan(0);
    await waitFor(
      async () => (await commands.set(`${config.redisPrefix}:marker`, 'after').catch(() => null)) === 'OK',
      20_000,
    );
    expect(await sentinel.currentPrimaryPort()).toBe(sentinel.replicaPort);
    await breaker.recordFailure('ch_sentinel', 'overload');
    expect(breaker.stateOf('ch_sentinel')).toBe('open');
    await runJobs('sentinel-steps-after');
    await waitFor(async () => {
      await commands.publish(`${config.redisPrefix}:announcements`, 'after the failover');
      return heard.includes('after the failover');
    }, 15_000);
    await breaker.stop();
  });
});
