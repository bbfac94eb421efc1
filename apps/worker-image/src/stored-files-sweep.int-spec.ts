import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue } from 'bullmq';
import { LocalObjectStore } from '@gateway/storage';
import { QUEUE_NAMES } from '@gateway/tasks';
import { createTestDatabase, waitFor, type TestDatabase } from '@gateway/testing';
import { STORED_FILES_SWEEP_SCHEDULER_ID } from './stored-files-sweep.processor';
import { WorkerImageModule } from './worker-image.module';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const HOUR_MS = 3_600_000;

describe('worker-image stored-file retention (Postgres, Redis, local store)', () => {
  let database: TestDatabase;
  let directory: string;
  let app: INestApplicationContext;
  let maintenanceQueue: Queue;

  beforeAll(async () => {
    database = await createTestDatabase();
    directory = await mkdtemp(join(tmpdir(), 'w1-sweep-'));
    const prefix = `test-wimage-sweep-${randomBytes(4).toString('hex')}`;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      ADMIN_TOKEN: 'test-admin-token-0123456789',
      MASTER_KEY: 'ab'.repeat(32),
      LOG_LEVEL: 'silent',
      OBJECT_STORE_DIR: directory,
      OBJECT_SWEEP_INTERVAL_MS: '120000',
    };
    app = await NestFactory.createApplicationContext(WorkerImageModule.forRoot({ env }), { logger: false });
    maintenanceQueue = new Queue(QUEUE_NAMES.imageMaintenance, { connection: { url: REDIS_URL }, prefix });
  });

  afterAll(async () => {
    await app.close();
    await maintenanceQueue.obliterate({ force: true });
    await maintenanceQueue.close();
    await database.drop();
    await rm(directory, { recursive: true, force: true });
  });

  /** Every file name under the store's directory. */
  async function storedNames(): Promise<string[]> {
    const entries = await readdir(directory, { recursive: true });
    return entries.map((entry) => entry.toString());
  }

  it('upserts its job scheduler at start and removes expired files when the job runs', async () => {
    expect((await maintenanceQueue.getJobScheduler(STORED_FILES_SWEEP_SCHEDULER_ID))?.every).toBe(120_000);
    // The scheduler's first sweep runs at once; the files are written after it.
    await waitFor(async () => {
      const counts = await maintenanceQueue.getJobCounts('wait', 'active');
      return counts.wait === 0 && counts.active === 0;
    });
    // Written as if two hours ago, with an expiry one hour ago; the other file is live.
    const past = new LocalObjectStore({
      directory,
      retentionHours: 1,
      clock: { now: () => Date.now() - 2 * HOUR_MS },
    });
    const expired = await past.put(Buffer.from('old'), {
      contentType: 'image/png',
      expiresAt: new Date(Date.now() - HOUR_MS),
    });
    const live = await new LocalObjectStore({ directory, retentionHours: 1 }).put(Buffer.from('new'), {
      contentType: 'image/png',
    });
    expect((await storedNames()).some((name) => name.includes(expired.id))).toBe(true);

    await maintenanceQueue.add(STORED_FILES_SWEEP_SCHEDULER_ID, {});

    await waitFor(async () => !(await storedNames()).some((name) => name.includes(expired.id)));
    expect((await storedNames()).some((name) => name.includes(live.id))).toBe(true);
  });
});
