import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { QUEUE_NAMES } from '@gateway/tasks';
import { BuiltApps, createTestDatabase, type AppProcess, type TestDatabase } from '@gateway/testing';
import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const POOL_SIZE = 8;

/**
 * Short bounds for the built worker: a killed worker's jobs are taken over after 2 s, an interrupted
 * submission is looked at again after 3 s (a video one resubmitted under the same Idempotency-Key),
 * polls every 0.2–1 s, and a task whose job was lost is found within a few seconds.
 */
function workerEnvironment(
  database: TestDatabase,
  prefix: string,
  masterKey: Buffer,
): Record<string, string> {
  return {
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    REDIS_URL,
    REDIS_PREFIX: prefix,
    ADMIN_TOKEN: 'worker-video-admin-token-0123',
    MASTER_KEY: masterKey.toString('hex'),
    LOG_LEVEL: 'warn',
    SHUTDOWN_GRACE_MS: '500',
    QUEUE_LOCK_DURATION_MS: '2000',
    QUEUE_STALLED_INTERVAL_MS: '500',
    VIDEO_WORKER_CONCURRENCY: '16',
    TASK_MIN_POLL_DELAY_MS: '200',
    TASK_MAX_POLL_DELAY_MS: '1000',
    TASK_SUBMISSION_TIMEOUT_MS: '3000',
    TASK_SWEEP_INTERVAL_MS: '2000',
    TASK_STRANDED_AFTER_MS: '5000',
  };
}

/**
 * The production build of worker-video over a database and a Redis prefix of its own: worker processes
 * to start and SIGKILL, the task-step queue to seed, and what a test reads back.
 */
export class WorkerVideoHarness {
  /** The key channel secrets are encrypted under: the workers' MASTER_KEY. */
  readonly masterKey = randomBytes(32);
  readonly pool: Pool;
  readonly prisma: PrismaClient;
  /** The queue of task steps, as the workers read it. */
  readonly queue: Queue;
  private readonly prefix: string;
  private readonly running: AppProcess[] = [];

  private constructor(
    private readonly built: BuiltApps,
    private readonly database: TestDatabase,
    name: string,
    /** Settings of this test's workers beyond the common ones. */
    private readonly extraEnvironment: Record<string, string>,
  ) {
    this.pool = createPgPool(database.url, POOL_SIZE);
    this.prisma = createPrismaClient(this.pool);
    this.prefix = `test-${name}-${randomBytes(4).toString('hex')}`;
    this.queue = new Queue(QUEUE_NAMES.videoTasks, { connection: { url: REDIS_URL }, prefix: this.prefix });
  }

  /** Builds the apps and creates the database; `name` goes into the Redis prefix. */
  static async start(
    name: string,
    extraEnvironment: Record<string, string> = {},
  ): Promise<WorkerVideoHarness> {
    const built = BuiltApps.build();
    try {
      return new WorkerVideoHarness(built, await createTestDatabase(), name, extraEnvironment);
    } catch (error) {
      built.remove();
      throw error;
    }
  }

  startWorker(): AppProcess {
    const env = {
      ...workerEnvironment(this.database, this.prefix, this.masterKey),
      ...this.extraEnvironment,
    };
    const worker = this.built.start('worker-video', env);
    this.running.push(worker);
    return worker;
  }

  /** SIGKILL: the worker gets no chance to finish or hand back what it holds. */
  async killWorker(worker: AppProcess): Promise<void> {
    worker.signal('SIGKILL');
    await worker.exited;
  }

  /** Ends every worker this harness started (between tests). */
  async stopWorkers(): Promise<void> {
    await Promise.all(this.running.splice(0).map((worker) => worker.kill()));
  }

  openTaskCount(): Promise<number> {
    return this.prisma.task.count({ where: { status: { in: ['queued', 'processing'] } } });
  }

  async holdStatusOf(taskId: string): Promise<string | undefined> {
    return (await this.prisma.hold.findUnique({ where: { requestId: taskId } }))?.status;
  }

  async close(): Promise<void> {
    await this.stopWorkers();
    // The music poll cycles' queue is made by every worker-video under the same prefix.
    const polls = new Queue(QUEUE_NAMES.musicPolls, { connection: { url: REDIS_URL }, prefix: this.prefix });
    await polls.obliterate({ force: true });
    await polls.close();
    await this.queue.obliterate({ force: true });
    await this.queue.close();
    await this.prisma.$disconnect();
    await this.pool.end();
    await this.database.drop();
    this.built.remove();
  }
}
