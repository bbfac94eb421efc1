import { randomUUID } from 'node:crypto';
import { AuthFailureThrottle } from '@gateway/auth';
import { loadConfig, type RedisTopology } from '@gateway/config';
import { createRedisConnection, type RedisConnection } from '@gateway/redis';
import { CircuitBreaker } from '@gateway/routing';
import { RedisClusterProcess, waitFor } from '@gateway/testing';
import { Queue, Worker } from 'bullmq';
import { RedisLimiter } from '../../src/governance/redis-limiter';

const silentLogger = { warn: () => undefined };

/**
 * The gateway's Redis users on a real Redis Cluster (three primaries, three replicas): the multi-key
 * scripts and BullMQ under the hash-tagged prefix the configuration gives a cluster, pub/sub across
 * connections, and all of it again after a primary is killed and its replica takes over.
 */
describe('the Redis users on a Redis Cluster', () => {
  let cluster: RedisClusterProcess;
  let topology: RedisTopology;
  let prefix: string;
  let queuePrefix: string;
  const connections: RedisConnection[] = [];

  const connect = (): RedisConnection => {
    const connection = createRedisConnection(topology);
    connection.on('error', () => undefined);
    connections.push(connection);
    return connection;
  };

  /** A connection that has answered once: the throttle and the limiter skip Redis until it is ready. */
  const readyConnection = async (): Promise<RedisConnection> => {
    const connection = connect();
    await connection.ping();
    return connection;
  };

  beforeAll(async () => {
    cluster = await RedisClusterProcess.start();
    const config = loadConfig({
      MASTER_KEY: 'ab'.repeat(32),
      ADMIN_API_ENABLED: 'false',
      REDIS_CLUSTER_NODES: cluster.seedNodes,
      REDIS_PREFIX: `cluster-${randomUUID().slice(0, 8)}`,
    });
    topology = config.redis;
    prefix = config.redisPrefix;
    queuePrefix = config.queuePrefix;
  }, 60_000);

  afterAll(async () => {
    for (const connection of connections) connection.disconnect();
    await cluster?.stop();
  });

  it("gives BullMQ's prefix a hash tag, so that no queue spans two slots", () => {
    expect(topology.kind).toBe('cluster');
    expect(prefix).toMatch(/^cluster-[0-9a-f]{8}$/);
    expect(queuePrefix).toBe(`{${prefix}}`);
  });

  async function openCircuitAcrossInstances(channelId: string): Promise<void> {
    const options = {
      prefix,
      failureThreshold: 2,
      windowMs: 10_000,
      cooldownMs: 60_000,
      logger: silentLogger,
    };
    const first = new CircuitBreaker(connect(), connect(), options);
    const second = new CircuitBreaker(connect(), connect(), options);
    await Promise.all([first.start(), second.start()]);
    try {
      await first.recordFailure(channelId, 'overload');
      await second.recordFailure(channelId, 'overload');
      // The second failure's script (three keys together) opened it; the first hears of it over pub/sub.
      expect(second.stateOf(channelId)).toBe('open');
      await waitFor(async () => first.stateOf(channelId) === 'open', 5_000);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  }

  async function throttleAddress(address: string): Promise<void> {
    const throttle = new AuthFailureThrottle(await readyConnection(), {
      prefix,
      limit: 2,
      windowMs: 60_000,
      logger: silentLogger,
    });
    const verdicts = [];
    for (let attempt = 0; attempt < 3; attempt += 1) verdicts.push(await throttle.recordFailure(address));
    expect(verdicts.map((verdict) => verdict.throttled)).toEqual([false, false, true]);
  }

  /** Two instances' limiters over their own connections: the account's and key's counters are shared. */
  async function limitAcrossInstances(accountId: string): Promise<void> {
    const options = { prefix, leaseMs: 60_000, timeoutMs: 2_000, clock: { now: Date.now } };
    const limiters = [
      new RedisLimiter(await readyConnection(), options),
      new RedisLimiter(await readyConnection(), options),
    ];
    const scopes = [
      { kind: 'key' as const, id: `${accountId}-key`, limits: { requestsPerMinute: 3 } },
      { kind: 'account' as const, id: accountId, limits: { concurrentRequests: 10, tokensPerMinute: 1_000 } },
    ];
    const verdicts = [];
    for (let index = 0; index < 4; index += 1) {
      const verdict = await limiters[index % 2].admit({
        accountId,
        scopes,
        tokens: 10,
        now: Date.now(),
      });
      verdicts.push(verdict.kind);
    }
    // Every script call touched the key's and the account's counters together (one slot: the account tag).
    expect(verdicts).toEqual(['admitted', 'admitted', 'admitted', 'refused']);
  }

  async function runJobs(queueName: string, count: number): Promise<void> {
    const producer = connect();
    const queue = new Queue(queueName, { connection: producer, prefix: queuePrefix });
    const done = new Set<string>();
    const worker = new Worker(
      queueName,
      async (job) => {
        done.add(String(job.id));
      },
      { connection: connect(), prefix: queuePrefix, concurrency: 4 },
    );
    worker.on('error', () => undefined);
    try {
      await queue.addBulk(
        Array.from({ length: count }, (_, index) => ({
          name: 'step',
          data: { index },
          opts: { jobId: `job-${index}`, delay: index % 2 === 0 ? 0 : 200 },
        })),
      );
      await waitFor(async () => done.size === count, 20_000);
    } finally {
      await worker.close();
      await queue.close();
    }
  }

  it('runs the circuit and limit scripts, the throttle and BullMQ jobs (delayed ones too), with pub/sub between instances', async () => {
    await openCircuitAcrossInstances('ch_before');
    await throttleAddress('198.51.100.7');
    await limitAcrossInstances('acct_before');
    await runJobs('cluster-steps', 20);
  });

  it("keeps working after the primary of the queues' slot is killed and its replica takes over", async () => {
    const victim = await cluster.primaryPortOf(queuePrefix);
    const subscriber = connect();
    const publisher = connect();
    const heard: string[] = [];
    subscriber.on('message', (_channel: string, message: string) => heard.push(message));
    await subscriber.subscribe(`${prefix}:test:announcements`);

    const failoverMs = await cluster.killPrimary(victim);

    expect(await cluster.primaryPorts()).not.toContain(victim);
    expect(failoverMs).toBeGreaterThan(0);
    await openCircuitAcrossInstances('ch_after');
    await throttleAddress('198.51.100.8');
    await limitAcrossInstances('acct_after');
    await runJobs('cluster-steps-after', 20);
    // The subscriber kept (or re-made) its subscription through the failover.
    await waitFor(async () => {
      await publisher.publish(`${prefix}:test:announcements`, 'after the failover');
      return heard.includes('after the failover');
    }, 15_000);
  });
});
