import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Pool } from 'pg';
import { startSimulator, type RunningSimulator } from '@gateway/simulators';
import { BuiltApps, createTestDatabase, type AppProcess, type TestDatabase } from '@gateway/testing';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A loopback port free at the time of asking. */
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

/**
 * The quickstart's stack for the console's browser test: the production build (console included, in
 * a folder of its own so that a concurrent `npm run build` cannot pull files from under it), the
 * gateway, worker-text and worker-video as processes on a fresh database and Redis prefix, in front of
 * the simulators. worker-image is left out on purpose: a /bt image task then stays unfinished, which is
 * what a stuck task is.
 */
export class ConsoleStack {
  readonly adminToken = randomBytes(24).toString('hex');
  private readonly processes: AppProcess[] = [];
  private pool: Pool | undefined;

  private constructor(
    private readonly built: BuiltApps,
    private readonly database: TestDatabase,
    private readonly simulator: RunningSimulator,
    readonly url: string,
  ) {}

  static async start(): Promise<ConsoleStack> {
    const built = BuiltApps.build({ console: true });
    const [database, simulator, port] = await Promise.all([
      createTestDatabase(),
      startSimulator(),
      freePort(),
    ]);
    const stack = new ConsoleStack(built, database, simulator, `http://127.0.0.1:${port}`);
    try {
      await stack.startProcesses(port);
      return stack;
    } catch (error) {
      await stack.close();
      throw error;
    }
  }

  get simulatorUrl(): string {
    return this.simulator.url;
  }

  private async startProcesses(port: number): Promise<void> {
    const env: Record<string, string> = {
      DATABASE_URL: this.database.url,
      REDIS_URL,
      REDIS_PREFIX: `console-e2e-${randomBytes(4).toString('hex')}`,
      ADMIN_TOKEN: this.adminToken,
      MASTER_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      CONSOLE_DIR: this.built.consoleDirectory,
      // The simulator answers image results with loopback URLs; only its own port is allowed.
      SSRF_ALLOW_HOSTS: new URL(this.simulator.url).host,
      SHUTDOWN_GRACE_MS: '500',
      TASK_MIN_POLL_DELAY_MS: '100',
      TASK_MAX_POLL_DELAY_MS: '500',
    };
    const gateway = this.built.start('gateway', { ...env, PORT: String(port) });
    this.processes.push(gateway, this.built.start('worker-text', env), this.built.start('worker-video', env));
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ended = this.processes.find((process) => !process.running);
      if (ended) throw new Error(`${ended.name} ended while starting:\n${ended.lines.join('\n')}`);
      try {
        if ((await fetch(`${this.url}/readyz`)).ok) return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline)
        throw new Error(`the gateway did not get ready:\n${gateway.lines.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The admin API with the bearer token, for what the scenario prepares outside the browser. */
  async admin<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.adminToken}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  async query(sql: string, values: unknown[] = []): Promise<void> {
    this.pool ??= new Pool({ connectionString: this.database.url, max: 1 });
    await this.pool.query(sql, values);
  }

  /** Every line the processes wrote, for a failure's message. */
  output(): string {
    return this.processes
      .map((process) => `--- ${process.name}\n${process.lines.slice(-40).join('\n')}`)
      .join('\n');
  }

  async close(): Promise<void> {
    await Promise.all(this.processes.map((process) => process.kill()));
    await this.pool?.end();
    await this.simulator.close();
    await this.database.drop();
    this.built.remove();
  }
}
