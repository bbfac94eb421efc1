import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Client } from 'pg';
import { startSimulator, type RunningSimulator } from '@gateway/simulators';
import { QUEUE_NAMES } from '@gateway/tasks/queues';
import {
  createTestDatabase,
  terminateBackends,
  TEST_POSTGRES_ADMIN_URL,
  waitFor,
  whileDatabaseRefusesConnections,
  type TestDatabase,
} from '@gateway/testing';
import { seedTextOverAdminApi } from './admin-seed';
import { BuiltApps, freePort, untilListening, type AppProcess } from './app-processes';
import { TcpOutageProxy } from './tcp-outage.proxy';
import { sendTextCall, TEXT_CALL_KINDS, type TextCallKind } from './text-calls.client';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const HOLD_REAPER_JOB = 'reap-expired-holds';

/**
 * Connections lost under the gateway and worker-text, both running as production builds: Postgres
 * backends terminated mid-load, a Postgres database that refuses connections for a while, Redis
 * connections reset. No process may end, every line they write stays structured JSON, and requests
 * succeed again once the connection is back.
 */
describe('lost Postgres and Redis connections (gateway and worker-text processes)', () => {
  let database: TestDatabase;
  let databaseName: string;
  let simulator: RunningSimulator;
  let redisProxy: TcpOutageProxy;
  let apps: BuiltApps;
  let gateway: AppProcess;
  let worker: AppProcess;
  let gatewayUrl: string;
  let key: string;
  let postgresAdmin: Client;
  let maintenanceQueue: Queue;

  beforeAll(async () => {
    [database, simulator, redisProxy] = await Promise.all([
      createTestDatabase(),
      startSimulator(),
      TcpOutageProxy.start(REDIS_URL),
    ]);
    databaseName = database.name;
    postgresAdmin = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
    await postgresAdmin.connect();
    apps = BuiltApps.build();
    const port = await freePort();
    gatewayUrl = `http://127.0.0.1:${port}`;
    const adminToken = randomBytes(24).toString('hex');
    const prefix = `test-lost-${randomBytes(4).toString('hex')}`;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redisProxy.url(REDIS_URL),
      REDIS_PREFIX: prefix,
      ADMIN_TOKEN: adminToken,
      MASTER_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'info',
      PORT: String(port),
      HOST: '127.0.0.1',
      // Every hold is a database write: a request served from a lease in memory would hide the outage.
      LEASE_HOLDS_AHEAD: '0',
    };
    gateway = apps.start('gateway', env);
    worker = apps.start('worker-text', env);
    await untilListening(gatewayUrl, gateway);
    await waitFor(async () => worker.logged('worker started').length > 0, 30_000);
    ({ key } = await seedTextOverAdminApi(gatewayUrl, adminToken, simulator.url));
    maintenanceQueue = new Queue(QUEUE_NAMES.textMaintenance, { connection: { url: REDIS_URL }, prefix });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway?.kill(), worker?.kill()]);
    await maintenanceQueue?.obliterate({ force: true });
    await maintenanceQueue?.close();
    await postgresAdmin?.end();
    await Promise.all([simulator?.close(), redisProxy?.close(), database?.drop()]);
    apps?.remove();
  });

  const call = (kind: TextCallKind) => sendTextCall(gatewayUrl, key, kind);

  /** Runs a reaping job on worker-text and waits for its outcome: the worker's pool gets a connection. */
  async function reapOnWorker(): Promise<void> {
    const job = await maintenanceQueue.add(HOLD_REAPER_JOB, {});
    await waitFor(async () => ['completed', 'failed'].includes(await job.getState()), 30_000);
  }

  function expectBothRunningAndStructured(): void {
    expect({ gateway: gateway.running, worker: worker.running }).toEqual({ gateway: true, worker: true });
    expect(gateway.unstructuredLines()).toEqual([]);
    expect(worker.unstructuredLines()).toEqual([]);
  }

  it('terminating every backend of the database mid-load ends no process, and the next requests succeed', async () => {
    await reapOnWorker();
    const statuses: number[] = [];
    let loading = true;
    const clients = Array.from({ length: 8 }, async (_, index) => {
      for (let turn = index; loading; turn += 1) {
        const kind = TEXT_CALL_KINDS[turn % TEXT_CALL_KINDS.length];
        // A connection the gateway dropped counts as status 0.
        statuses.push(
          await call(kind).then(
            (answer) => answer.status,
            () => 0,
          ),
        );
      }
    });
    await waitFor(async () => statuses.length >= 40, 30_000);
    for (let round = 0; round < 3; round += 1) {
      await terminateBackends(postgresAdmin, databaseName);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    loading = false;
    await Promise.all(clients);

    // A statement on a terminated connection fails its request with a 503; nothing else may.
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    for (const kind of TEXT_CALL_KINDS) expect((await call(kind)).status).toBe(200);
    const reaped = await maintenanceQueue.add(HOLD_REAPER_JOB, {});
    await waitFor(async () => (await reaped.getState()) === 'completed', 30_000);
    expectBothRunningAndStructured();
    expect(gateway.logged('postgres connection error').length).toBeGreaterThan(0);
    expect(worker.logged('postgres connection error').length).toBeGreaterThan(0);
  }, 120_000);

  it('answers 503 in the route dialect while the database refuses connections, and serves again once it is back', async () => {
    await whileDatabaseRefusesConnections(postgresAdmin, databaseName, async () => {
      const native = await call('native');
      expect(native.status).toBe(503);
      expect(JSON.parse(native.text)).toEqual({
        error: { code: 503, message: expect.any(String), status: 'UNAVAILABLE' },
      });
      const openai = await call('openai-stream');
      expect(openai.status).toBe(503);
      expect(JSON.parse(openai.text)).toMatchObject({
        error: { message: expect.any(String), type: 'server_error' },
      });
    });
    await waitFor(async () => (await call('native')).status === 200, 30_000);
    for (const kind of TEXT_CALL_KINDS) expect((await call(kind)).status).toBe(200);
    expectBothRunningAndStructured();
  }, 120_000);

  it('logs reset Redis connections as structured lines, and both processes carry on once Redis is back', async () => {
    await redisProxy.cut();
    // ioredis reports each failed reconnection attempt: let a few happen.
    await waitFor(async () => gateway.logged('redis connection error').length >= 2, 30_000);
    await redisProxy.restore();

    for (const kind of TEXT_CALL_KINDS) expect((await call(kind)).status).toBe(200);
    const reaped = await maintenanceQueue.add(HOLD_REAPER_JOB, {});
    await waitFor(async () => (await reaped.getState()) === 'completed', 30_000);
    expectBothRunningAndStructured();
  }, 120_000);
});
