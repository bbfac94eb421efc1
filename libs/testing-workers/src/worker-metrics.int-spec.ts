import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { BuiltApps, createTestDatabase, waitFor, type AppProcess, type TestDatabase } from '@gateway/testing';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const WORKERS = ['worker-text', 'worker-image', 'worker-video', 'worker-assets'] as const;

/** Series every worker serves from its first scrape: process figures, its pool, the shared business series. */
const EXPECTED_SERIES = [
  'process_cpu_seconds_total',
  'nodejs_eventloop_lag_p99_seconds',
  'gateway_pg_pool_connections{pool="worker",state="total"}',
  '# TYPE gateway_tokens_total counter',
  '# TYPE gateway_spend_micros_total counter',
  '# TYPE gateway_stream_first_byte_seconds histogram',
  '# TYPE gateway_task_transitions_total counter',
  '# TYPE gateway_task_completion_lag_seconds histogram',
  '# TYPE gateway_limit_refusals_total counter',
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** How often the process has gone to sleep and been woken (every thread's voluntary context switches). */
function wakeUpsOf(pid: number): number {
  let total = 0;
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    const status = readFileSync(`/proc/${pid}/task/${thread}/status`, 'utf8');
    total += Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  }
  return total;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/**
 * Each worker of the production build, as docker-compose.yml runs it: without ADMIN_TOKEN, its
 * /metrics and /healthz on the port it is given, and a clean exit on SIGTERM.
 */
describe('worker /metrics (production build)', () => {
  let built: BuiltApps;
  let database: TestDatabase;
  const prefix = `test-wmetrics-${randomBytes(4).toString('hex')}`;
  const running: AppProcess[] = [];

  beforeAll(async () => {
    built = BuiltApps.build();
    database = await createTestDatabase();
  }, 120_000);

  /** What every worker here runs with: the test's database and Redis prefix, no admin API. */
  const workerEnv = () => ({
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_PREFIX: prefix,
    MASTER_KEY: randomBytes(32).toString('hex'),
    ADMIN_API_ENABLED: 'false',
  });

  afterAll(async () => {
    await Promise.all(running.map((worker) => worker.kill()));
    await database?.drop();
    built?.remove();
  });

  it.each(WORKERS)(
    '%s serves its metrics and liveness on WORKER_METRICS_PORT',
    async (name) => {
      const port = await freePort();
      const worker = built.start(name, {
        ...workerEnv(),
        LOG_LEVEL: 'info',
        SHUTDOWN_GRACE_MS: '500',
        WORKER_METRICS_PORT: String(port),
        WORKER_METRICS_HOST: '127.0.0.1',
      });
      running.push(worker);
      const base = `http://127.0.0.1:${port}`;
      await waitFor(async () => {
        if (!worker.running) throw new Error(`${name} ended while starting:\n${worker.lines.join('\n')}`);
        return answers(`${base}/healthz`);
      }, 30_000);

      const scraped = await fetch(`${base}/metrics`);
      const text = await scraped.text();
      expect(scraped.status).toBe(200);
      expect(EXPECTED_SERIES.filter((series) => !text.includes(series))).toEqual([]);
      // Log lines are written asynchronously: the listener may answer before its line arrives.
      await waitFor(async () => worker.logged('serving /metrics').length > 0, 5_000);
      expect(worker.logged('serving /metrics')).toEqual([expect.objectContaining({ port })]);
      expect((await fetch(`${base}/admin/accounts`)).status).toBe(404);

      worker.signal('SIGTERM');
      expect(await worker.exited).toEqual({ code: 0, signal: null });
      expect(worker.unstructuredLines()).toEqual([]);
    },
    60_000,
  );

  it('keeps running without /metrics when its default port is taken, and says so', async () => {
    // worker-assets' default port (9104), held by another listener, as a second worker on one host would.
    const holder = createServer();
    // Held by this test itself: another process that holds it now (a demo's worker-assets, the
    // quickstart test's, which runs in parallel) may let it go before the worker starts, and the worker
    // would then serve /metrics on it. So this waits until the port is free and holds it.
    await waitFor(
      () =>
        new Promise<boolean>((resolve) => {
          // Each try takes its listeners off again: a failed listen leaves its 'listening' callback on the
          // server, and eleven tries while the quickstart held the port once printed Node's leak warning.
          const listening = () => {
            holder.off('error', taken);
            resolve(true);
          };
          const taken = () => {
            holder.off('listening', listening);
            resolve(false);
          };
          holder.once('error', taken);
          holder.once('listening', listening);
          holder.listen(9104, '0.0.0.0');
        }),
      45_000,
    );
    try {
      const worker = built.start('worker-assets', {
        ...workerEnv(),
        LOG_LEVEL: 'info',
        SHUTDOWN_GRACE_MS: '500',
        // Unset: the production default applies (BuiltApps turns the listener off otherwise).
        WORKER_METRICS_PORT: '',
      });
      running.push(worker);
      await waitFor(async () => worker.logged('worker started').length > 0 || !worker.running, 30_000);
      expect(worker.running).toBe(true);
      expect(
        worker.logged('default metrics port unavailable; /metrics is off (set WORKER_METRICS_PORT)'),
      ).toEqual([expect.objectContaining({ port: 9104 })]);
      worker.signal('SIGTERM');
      expect(await worker.exited).toEqual({ code: 0, signal: null });
    } finally {
      holder.close();
    }
  }, 90_000);

  it('samples nothing while idle when /metrics is off', async () => {
    const worker = built.start('worker-text', {
      ...workerEnv(),
      WORKER_METRICS_PORT: '0',
    });
    running.push(worker);
    await waitFor(async () => worker.logged('worker started').length > 0 || !worker.running, 30_000);
    expect(worker.running).toBe(true);
    // The process metrics' event-loop monitor wakes a worker every 10 ms (100 a second) for a
    // /metrics nobody can scrape; without it an idle worker wakes a few times a second (its queue's
    // blocking reads, its timers).
    const before = wakeUpsOf(worker.pid);
    await sleep(3_000);
    expect((wakeUpsOf(worker.pid) - before) / 3).toBeLessThan(40);
    worker.signal('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('refuses to start when the port it was given is taken', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const address = holder.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const worker = built.start('worker-text', {
        ...workerEnv(),
        WORKER_METRICS_PORT: String(port),
        WORKER_METRICS_HOST: '127.0.0.1',
      });
      running.push(worker);
      expect((await worker.exited).code).toBe(1);
      expect(worker.lines.join('\n')).toContain('EADDRINUSE');
    } finally {
      holder.close();
    }
  }, 60_000);
});
