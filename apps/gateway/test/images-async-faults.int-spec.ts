import { setTimeout as sleep } from 'node:timers/promises';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { TEST_POSTGRES_ADMIN_URL, waitFor } from '@gateway/testing';
import { ImageWorkerUnderTest } from '@gateway/testing-workers';
import { GatewayHarness } from './gateway-harness';
import { IMAGE_PRICE_MICROS, imageHarnessEnv, seedImageDemo, type ImageDemo } from './image-demo';
import { TcpOutageProxy } from './tcp-outage.proxy';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Names the worker's Postgres sessions, so that only they are terminated (not the gateway's). */
const WORKER_APPLICATION_NAME = 'worker-image-faults';
const JOBS = 10;
/** Each fault may cut a run short, which is then made again: one more upstream call per fault at most. */
const FAULTS = 3;

/**
 * Asynchronous image jobs while worker-image loses its database and its Redis: with jobs queued, in
 * their upstream call, storing their images and settling, the worker's Postgres sessions are terminated
 * (as a database restart ends them) and its Redis connections reset and refused for a while (its own
 * only, through a proxy: the shared Redis is never restarted). Every job still ends, completed and
 * charged once or failed and released; the books balance, and no job is called upstream more often
 * than the faults that interrupted it allow.
 */
describe('asynchronous image jobs when worker-image loses Postgres and Redis', () => {
  let redisProxy: TcpOutageProxy;
  let harness: GatewayHarness;
  let worker: INestApplicationContext;
  let postgresAdmin: Client;
  const { OBJECT_STORE_DIR } = imageHarnessEnv();

  beforeAll(async () => {
    redisProxy = await TcpOutageProxy.start(REDIS_URL);
    harness = await GatewayHarness.start({ OBJECT_STORE_DIR });
    postgresAdmin = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
    await postgresAdmin.connect();
    const { config } = harness;
    const databaseUrl = new URL(config.databaseUrl);
    databaseUrl.searchParams.set('application_name', WORKER_APPLICATION_NAME);
    worker = await NestFactory.createApplicationContext(
      ImageWorkerUnderTest.forEnvironment({
        DATABASE_URL: databaseUrl.toString(),
        REDIS_URL: redisProxy.url(REDIS_URL),
        REDIS_PREFIX: config.redisPrefix,
        ADMIN_TOKEN: config.adminToken,
        MASTER_KEY: config.masterKeys.currentKey.toString('hex'),
        OBJECT_STORE_DIR,
        LOG_LEVEL: 'silent',
        // A run that died with its connection is found again within seconds: a step job whose lock
        // lapsed, or a task no job holds (the stranded-task sweep).
        QUEUE_LOCK_DURATION_MS: '2000',
        QUEUE_STALLED_INTERVAL_MS: '500',
        TASK_SWEEP_INTERVAL_MS: '500',
        TASK_STRANDED_AFTER_MS: '3000',
      }),
      { logger: false },
    );
  });

  afterAll(async () => {
    await worker?.close();
    await postgresAdmin?.end();
    await harness?.close();
    await redisProxy?.close();
  });

  /** Ends the worker's Postgres sessions; how many there were. */
  const terminateWorkerSessions = async () =>
    (
      await postgresAdmin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
        [WORKER_APPLICATION_NAME],
      )
    ).rowCount;
  const statusesOf = async (demo: ImageDemo) =>
    harness.query<{ id: string; status: string }>(
      'select id, status from tasks where account_id = $1 order by id',
      [demo.accountId],
    );
  /** The upstream calls of each job, told apart by the number in its prompt (`Fault job 3 …`). */
  const upstreamCallsByJob = async (): Promise<Map<number, number>> => {
    const response = await fetch(`${harness.simulatorUrl}/__sim/requests?limit=200`);
    const entries = (await response.json()) as Array<{ path: string; body: string }>;
    const calls = new Map<number, number>();
    for (const entry of entries) {
      const job = /Fault job (\d+) /.exec(entry.body)?.[1];
      if (entry.path === '/v1/images/generations' && job !== undefined) {
        calls.set(Number(job), (calls.get(Number(job)) ?? 0) + 1);
      }
    }
    return calls;
  };

  it('ends every job once: completed and charged once, or failed and released; books balanced', async () => {
    const demo = await seedImageDemo(harness);
    // Upstream calls of different lengths, so that the faults find the jobs in different phases.
    const created = await Promise.all(
      Array.from({ length: JOBS }, (_, index) =>
        harness.request<{ id: string }>('POST', '/v1/images/generations', {
          body: {
            model: 'img-1',
            prompt: `Fault job ${index} [[sim latency=${400 + index * 300}]]`,
            response_format: 'b64_json',
          },
          headers: { authorization: `Bearer ${demo.key}`, prefer: 'respond-async' },
        }),
      ),
    );
    expect(created.map((answer) => answer.status)).toEqual(Array(JOBS).fill(202));
    const jobIndexOf = new Map(created.map((answer, index) => [answer.body.id, index]));
    await waitFor(async () => (await statusesOf(demo)).some((task) => task.status === 'processing'), 20_000);

    // Postgres and Redis both lost mid-call; then Postgres alone, twice, as runs store and settle.
    await redisProxy.cut();
    // The fault hits: the worker had sessions open.
    expect(await terminateWorkerSessions()).toBeGreaterThan(0);
    await sleep(1_500);
    await redisProxy.restore();
    await sleep(600);
    await terminateWorkerSessions();
    await sleep(900);
    await terminateWorkerSessions();

    // A run cut between the job's end and its settlement settles when the job is run again.
    const ENDED = ['completed', 'failed'];
    const openHolds = () =>
      harness.query("select request_id from holds where account_id = $1 and status = 'open'", [
        demo.accountId,
      ]);
    await waitFor(
      async () =>
        (await statusesOf(demo)).every((task) => ENDED.includes(task.status)) &&
        (await openHolds()).length === 0,
      90_000,
    ).catch(async (error: unknown) => {
      throw new Error(`${String(error)}: ${JSON.stringify([await statusesOf(demo), await openHolds()])}`);
    });
    const tasks = await statusesOf(demo);
    expect(tasks).toHaveLength(JOBS);

    await harness.settled();
    const money = await harness.query<{ id: string; hold: string; captures: string[]; logs: number }>(
      `select t.id, h.status as hold,
              coalesce(array(select amount::text from ledger_entries l
                              where l.request_id = t.id and l.kind = 'capture'), '{}') as captures,
              (select count(*)::int from request_logs r where r.request_id = t.id) as logs
         from tasks t join holds h on h.request_id = t.id
        where t.account_id = $1 order by t.id`,
      [demo.accountId],
    );
    // One settlement per job: its hold closed, one log row, a capture of the price exactly when completed.
    expect(money).toEqual(
      tasks.map((task) => ({
        id: task.id,
        hold: 'settled',
        captures: task.status === 'completed' ? [IMAGE_PRICE_MICROS.toString()] : [],
        logs: 1,
      })),
    );
    const completed = tasks.filter((task) => task.status === 'completed').length;
    const books = await harness.settledBooks(demo.accountId);
    expect(books.captures).toBe(BigInt(completed) * IMAGE_PRICE_MICROS);

    // Every job was asked of the upstream at least once (none ended without trying) and at most once
    // more per fault: a run cut short is made again, never more.
    const calls = await upstreamCallsByJob();
    const callsOf = tasks.map((task) => ({
      id: task.id,
      calls: calls.get(jobIndexOf.get(task.id) ?? -1) ?? 0,
    }));
    expect(callsOf.filter((job) => job.calls < 1 || job.calls > 1 + FAULTS)).toEqual([]);
    // The faults interrupt runs, they do not fail them: the jobs complete.
    expect(completed).toBe(JOBS);
  }, 150_000);
});
