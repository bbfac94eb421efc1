import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ImageWorkerUnderTest } from '@gateway/testing-workers';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { Client, type Pool } from 'pg';
import { SettlementService } from '@gateway/billing';
import { createPgPool } from '@gateway/db/pg-pool';
import { QUEUE_NAMES } from '@gateway/tasks';
import { fromSettlementJob, type TextSettlementJob } from '@gateway/tasks/queues';
import {
  killClientsNamedUnder,
  TEST_POSTGRES_ADMIN_URL,
  waitFor,
  whileDatabaseRefusesConnections,
} from '@gateway/testing';
import { BetaActionClient } from './beta-action.client';
import { GatewayHarness, type HttpAnswer } from './gateway-harness';
import { IMAGE_PRICE_MICROS, imageHarnessEnv, seedImageDemo, type ImageDemo } from './image-demo';

/** BETA_TEST_PRICES: one 1k image. */
const ONE_1K_IMAGE = 20_000n;
const CREDIT = 1_000_000_000n;

/**
 * Image requests and `/bt` tasks when the connections under them are lost: a database that refuses
 * connections and has every backend terminated under image load, worker-image's Redis connections
 * killed and the worker itself stopped while a task is mid-poll. Every answer is a 200 or a 503, every hold ends in exactly one
 * settlement, and the work goes on once the connection or the worker is back.
 */
describe('image requests and /bt tasks under lost connections', () => {
  let harness: GatewayHarness;
  let demo: ImageDemo;
  let postgresAdmin: Client;
  let redis: Redis;
  let settlementQueue: Queue<TextSettlementJob>;
  let pool: Pool;
  let worker: INestApplicationContext | undefined;

  const startWorker = async () => {
    const { config } = harness;
    worker = await NestFactory.createApplicationContext(
      ImageWorkerUnderTest.forEnvironment({
        DATABASE_URL: config.databaseUrl,
        REDIS_URL: config.redisUrl,
        REDIS_PREFIX: config.redisPrefix,
        ADMIN_TOKEN: config.adminToken,
        MASTER_KEY: config.masterKeys.currentKey.toString('hex'),
        LOG_LEVEL: 'silent',
      }),
      { logger: false },
    );
  };
  const holdOf = async (taskId: string) =>
    (
      await harness.query<{ status: string; hold_request_id: string; upstream_handle: unknown }>(
        'select status, hold_request_id, upstream_handle from tasks where id = $1',
        [taskId],
      )
    )[0];
  const holdStatus = async (requestId: string) =>
    (
      await harness.query<{ status: string }>('select status from holds where request_id = $1', [requestId])
    )[0]?.status;
  const captures = (requestId: string) =>
    harness.query<{ amount: string }>(
      "select amount::text from ledger_entries where request_id = $1 and kind = 'capture'",
      [requestId],
    );

  beforeAll(async () => {
    // Every hold a database write: a hold served from a lease in memory would hide the outage.
    harness = await GatewayHarness.start({ ...imageHarnessEnv(), LEASE_HOLDS_AHEAD: '0' });
    demo = await seedImageDemo(harness, CREDIT);
    await harness.seedBetaChannel({ models: ['beta-4.0'] });
    postgresAdmin = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
    await postgresAdmin.connect();
    redis = new Redis(harness.config.redisUrl);
    settlementQueue = new Queue(QUEUE_NAMES.textSettlement, {
      connection: { url: harness.config.redisUrl },
      prefix: harness.config.redisPrefix,
    });
    pool = createPgPool(harness.config.databaseUrl, 2);
  });
  afterAll(async () => {
    await worker?.close();
    await settlementQueue?.obliterate({ force: true });
    await settlementQueue?.close();
    await pool?.end();
    redis?.disconnect();
    await postgresAdmin?.end();
    await harness.close();
  });

  const generate = () =>
    harness.request('POST', '/v1/images/generations', {
      body: { model: 'img-1', prompt: 'A lighthouse', size: '1024x1024', response_format: 'b64_json' },
      headers: { authorization: `Bearer ${demo.key}` },
    });

  it('answers image requests 503 while the database refuses connections, 200 once it is back, and settles each once', async () => {
    const statuses: number[] = [];
    // Answers to requests sent once every backend was terminated, and answered before connections were
    // allowed again: each must be a 503.
    const outageAnswers: HttpAnswer[] = [];
    let inOutage = false;
    let loading = true;
    const clients = Array.from({ length: 4 }, async () => {
      while (loading) {
        const sentInOutage = inOutage;
        const answer = await generate().catch(() => undefined);
        // A connection the gateway dropped counts as status 0.
        statuses.push(answer?.status ?? 0);
        if (answer && sentInOutage && inOutage) outageAnswers.push(answer);
      }
    });
    await waitFor(async () => statuses.length >= 8, 30_000);
    await whileDatabaseRefusesConnections(postgresAdmin, harness.databaseName, async () => {
      inOutage = true;
      await waitFor(async () => outageAnswers.length >= 8, 30_000);
      inOutage = false;
      loading = false;
      await Promise.all(clients);
    });

    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(outageAnswers.map((answer) => answer.status)).toEqual(outageAnswers.map(() => 503));
    for (const answer of outageAnswers) {
      expect(answer.body).toMatchObject({ error: { message: expect.any(String), type: 'server_error' } });
    }
    const recovered = await generate();
    expect(recovered.status).toBe(200);
    await harness.settled();
    // A request answered just as the outage began has its settlement handed to worker-text's queue:
    // apply those as worker-text would, each once.
    const handedOff = await settlementQueue.getJobs(['waiting', 'delayed', 'prioritized']);
    const { appliedRequestIds } = await new SettlementService(pool).settleMany(
      handedOff.map((job) => fromSettlementJob(job.data)),
    );
    expect(appliedRequestIds).toHaveLength(handedOff.length);
    const outageRequestIds = outageAnswers.map((answer) => answer.headers.get('x-request-id'));
    expect(
      await harness.query("select request_id from holds where request_id = any($1) and status = 'open'", [
        outageRequestIds,
      ]),
    ).toEqual([]);
    expect(
      await harness.query(
        "select request_id from ledger_entries where request_id = any($1) and kind = 'capture'",
        [outageRequestIds],
      ),
    ).toEqual([]);
    expect(await captures(recovered.headers.get('x-request-id') ?? '')).toEqual([
      { amount: IMAGE_PRICE_MICROS.toString() },
    ]);
    const served = BigInt(statuses.filter((status) => status === 200).length + 1);
    const [account] = await harness.query<{ balance: string; held: string }>(
      'select balance::text, held::text from accounts where id = $1',
      [demo.accountId],
    );
    expect(account).toEqual({ balance: (CREDIT - served * IMAGE_PRICE_MICROS).toString(), held: '0' });
  }, 120_000);

  it('settles a /bt task exactly once when the worker loses Redis and is stopped mid-poll, then comes back', async () => {
    await startWorker();
    const accountId = await harness.createAccount(1_000_000n);
    const { key } = await harness.createKey(accountId);
    const client = new BetaActionClient(harness.url, key);
    const taskId = await client.submit({
      req_key: 'beta_t2i_v40',
      prompt: 'a kite through lost connections [[sim polls=8]]',
      size: 1024 * 1024,
      force_single: true,
    });
    const { hold_request_id: holdId } = await holdOf(taskId);
    await waitFor(async () => (await holdOf(taskId)).upstream_handle !== null, 30_000);

    expect(await killClientsNamedUnder(redis, harness.config.redisPrefix)).toBeGreaterThan(0);
    await worker?.close();
    worker = undefined;

    await startWorker();
    await waitFor(async () => (await holdStatus(holdId)) === 'settled', 60_000);
    expect((await holdOf(taskId)).status).toBe('completed');
    expect(await captures(holdId)).toEqual([{ amount: ONE_1K_IMAGE.toString() }]);

    // The client reads the result afterwards: still one capture.
    const answer = await client.getResult('beta_t2i_v40', taskId);
    expect(answer.envelope).toMatchObject({ code: 10000, data: { status: 'done' } });
    expect(await captures(holdId)).toHaveLength(1);
    expect(await harness.ledgerTotals(accountId)).toMatchObject({ capture: ONE_1K_IMAGE });
  }, 120_000);
});
