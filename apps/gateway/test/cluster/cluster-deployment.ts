import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '@gateway/simulators';
import {
  BuiltApps,
  createTestDatabase,
  freeLoopbackPortRange,
  HaproxyProcess,
  PgBouncerProcess,
  RedisClusterProcess,
  type AppProcess,
  type BuiltApp,
  type TestDatabase,
} from '@gateway/testing';
import { untilListening } from '../app-processes';

/** The one-of-each workers beside the two video workers. */
const OTHER_WORKERS: BuiltApp[] = ['worker-text', 'worker-image', 'worker-assets'];

/** A started process of the deployment and how to start it again. */
export interface DeployedProcess {
  readonly role: string;
  readonly app: BuiltApp;
  process: AppProcess;
  readonly env: Record<string, string>;
  /** The gateway's port, for the gateways. */
  readonly port?: number;
}

/**
 * The production topology on loopback, from the production build: a Redis Cluster (three primaries,
 * three replicas), PgBouncer in transaction mode in front of the test database, HAProxy in front of two
 * public gateway replicas, one admin instance, two worker-video and one of each other worker, all
 * in front of the upstream simulators.
 */
export class ClusterDeployment {
  readonly adminToken = randomBytes(24).toString('hex');
  readonly processes: DeployedProcess[] = [];

  private constructor(
    readonly built: BuiltApps,
    readonly database: TestDatabase,
    readonly redis: RedisClusterProcess,
    readonly bouncer: PgBouncerProcess,
    readonly simulatorUrl: string,
    private readonly closeSimulator: () => Promise<void>,
    private readonly objectDirectory: string,
    readonly common: Record<string, string>,
  ) {}

  proxy: HaproxyProcess | undefined;

  static async start(): Promise<ClusterDeployment> {
    const started = await Promise.allSettled([
      Promise.resolve().then(() => BuiltApps.build()),
      createTestDatabase(),
      RedisClusterProcess.start(),
      PgBouncerProcess.start({ poolSize: 20 }),
      startSimulator(),
    ] as const);
    const [built, database, redis, bouncer, simulator] = started;
    if (
      built.status === 'rejected' ||
      database.status === 'rejected' ||
      redis.status === 'rejected' ||
      bouncer.status === 'rejected' ||
      simulator.status === 'rejected'
    ) {
      // What did start must not outlive the test (Jest would wait for it for ever).
      if (built.status === 'fulfilled') built.value.remove();
      await Promise.allSettled([
        redis.status === 'fulfilled' ? redis.value.stop() : undefined,
        bouncer.status === 'fulfilled' ? bouncer.value.stop() : undefined,
        simulator.status === 'fulfilled' ? simulator.value.close() : undefined,
      ]);
      if (database.status === 'fulfilled') await database.value.drop();
      const failure = started.find((result) => result.status === 'rejected');
      throw failure?.status === 'rejected' ? failure.reason : new Error('the deployment did not start');
    }
    return ClusterDeployment.assemble(
      built.value,
      database.value,
      redis.value,
      bouncer.value,
      simulator.value,
    );
  }

  private static assemble(
    built: BuiltApps,
    database: TestDatabase,
    redis: RedisClusterProcess,
    bouncer: PgBouncerProcess,
    simulator: { url: string; close(): Promise<void> },
  ): ClusterDeployment {
    const objectDirectory = mkdtempSync(join(tmpdir(), 'gw-cluster-objects-'));
    const common: Record<string, string> = {
      // Every statement through PgBouncer; migrations and sessions (none at run time) direct.
      DATABASE_URL: bouncer.urlOf(database.url),
      DATABASE_DIRECT_URL: database.url,
      DATABASE_POOL_SIZE: '4',
      REDIS_CLUSTER_NODES: redis.seedNodes,
      REDIS_PREFIX: `cl-${randomBytes(4).toString('hex')}`,
      MASTER_KEY: randomBytes(32).toString('hex'),
      ADMIN_API_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      OBJECT_STORE_DIR: objectDirectory,
      SSRF_ALLOW_HOSTS: new URL(simulator.url).host,
      SHUTDOWN_GRACE_MS: '500',
      // Short bounds, as the worker chaos tests use: a killed worker's jobs come back after 2 s.
      QUEUE_LOCK_DURATION_MS: '2000',
      QUEUE_STALLED_INTERVAL_MS: '500',
      VIDEO_WORKER_CONCURRENCY: '32',
      TASK_MIN_POLL_DELAY_MS: '300',
      TASK_MAX_POLL_DELAY_MS: '1000',
      TASK_SUBMISSION_TIMEOUT_MS: '3000',
      TASK_SWEEP_INTERVAL_MS: '2000',
      TASK_STRANDED_AFTER_MS: '5000',
    };
    return new ClusterDeployment(
      built,
      database,
      redis,
      bouncer,
      simulator.url,
      () => simulator.close(),
      objectDirectory,
      common,
    );
  }

  /** Starts every process, waits until the gateways answer, then HAProxy in front of the public two. */
  async startProcesses(): Promise<void> {
    const [admin, publicA, publicB] = await Promise.all([0, 1, 2].map(() => freeLoopbackPortRange(1)));
    await Promise.all([
      this.startGateway('admin', admin, { ADMIN_API_ENABLED: 'true', ADMIN_TOKEN: this.adminToken }),
      this.startGateway('public-1', publicA, {}),
      this.startGateway('public-2', publicB, {}),
    ]);
    for (const [index, app] of (['worker-video', 'worker-video', ...OTHER_WORKERS] as BuiltApp[]).entries()) {
      const role = app === 'worker-video' ? `worker-video-${index + 1}` : app;
      const metricsPort = await freeLoopbackPortRange(1);
      this.startProcess(role, app, { ...this.common, WORKER_METRICS_PORT: String(metricsPort) });
    }
    this.proxy = await HaproxyProcess.start([publicA, publicB]);
  }

  get adminUrl(): string {
    return `http://127.0.0.1:${this.byRole('admin').port}`;
  }

  get publicUrl(): string {
    if (!this.proxy) throw new Error('HAProxy is not started');
    return this.proxy.url;
  }

  byRole(role: string): DeployedProcess {
    const found = this.processes.find((entry) => entry.role === role);
    if (!found) throw new Error(`no process ${role}`);
    return found;
  }

  /** SIGKILLs the process of `role` and starts it again at once; resolves once a gateway answers again. */
  async killAndRestart(role: string): Promise<number> {
    const entry = this.byRole(role);
    const startedAt = Date.now();
    await entry.process.kill();
    entry.process = this.built.start(entry.app, entry.env);
    if (entry.port !== undefined) await untilListening(`http://127.0.0.1:${entry.port}`, entry.process);
    return Date.now() - startedAt;
  }

  async stop(): Promise<void> {
    await Promise.all(this.processes.map((entry) => entry.process.kill()));
    await Promise.all([this.proxy?.stop(), this.closeSimulator(), this.redis.stop()]);
    // PgBouncer keeps server connections to the database: it goes before the database is dropped.
    await this.bouncer.stop();
    await this.database.drop();
    this.built.remove();
    rmSync(this.objectDirectory, { recursive: true, force: true });
  }

  /** Every line the processes wrote, for a failure message. */
  describe(): string {
    return this.processes
      .map((entry) => `--- ${entry.role}\n${entry.process.lines.slice(-20).join('\n')}`)
      .join('\n');
  }

  private async startGateway(role: string, port: number, env: Record<string, string>): Promise<void> {
    const entry = this.startProcess(role, 'gateway', { ...this.common, PORT: String(port), ...env }, port);
    await untilListening(`http://127.0.0.1:${port}`, entry.process);
  }

  private startProcess(
    role: string,
    app: BuiltApp,
    env: Record<string, string>,
    port?: number,
  ): DeployedProcess {
    const entry: DeployedProcess = { role, app, process: this.built.start(app, env), env, port };
    this.processes.push(entry);
    return entry;
  }
}
