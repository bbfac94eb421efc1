import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { createTestDatabase, type TestDatabase } from '@gateway/testing';
import type { Pool } from 'pg';
import { TaskStore, type NewTask } from './task-store';

/** What the task routes read and change of an account's own tasks: lookups, pages, deletion, cancel. */
describe('TaskStore: an account’s own tasks (Postgres)', () => {
  let database: TestDatabase;
  let pool: Pool;
  let prisma: PrismaClient;
  let store: TaskStore;
  let sequence = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPgPool(database.url, 4);
    prisma = createPrismaClient(pool);
    store = new TaskStore(prisma, pool);
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
    await database.drop();
  });

  async function created(overrides: Partial<NewTask> = {}) {
    sequence += 1;
    const { task } = await store.create({
      id: `owned_${String(sequence).padStart(3, '0')}`,
      kind: 'video',
      keyId: 'key_1',
      accountId: 'acct_1',
      model: 'delta-2',
      request: { prompt: 'a kite', images: [{ url: `data:image/png;base64,${'A'.repeat(1000)}` }] },
      requestHash: 'hash',
      deadlineAt: new Date(Date.now() + 60_000),
      ...overrides,
    });
    return task;
  }

  it('finds a task for its account only, and keeps the request hash and remix source', async () => {
    const task = await created({ remixedFromId: 'owned_000' });
    expect(await store.findOwned(task.id, 'acct_1')).toMatchObject({
      requestHash: 'hash',
      remixedFromId: 'owned_000',
    });
    expect(await store.findOwned(task.id, 'acct_2')).toBeNull();
  });

  it('pages an account’s tasks of one kind by creation, after a cursor, without their inputs', async () => {
    const accountId = 'acct_pages';
    const tasks = [];
    for (let index = 0; index < 3; index++) tasks.push(await created({ accountId }));
    await created({ accountId, kind: 'music' });
    await created({ accountId: 'acct_other' });
    // Two tasks in the same millisecond are ordered by id.
    await prisma.task.updateMany({
      where: { accountId },
      data: { createdAt: new Date('2026-11-24T10:00:00Z') },
    });

    const page = (order: 'asc' | 'desc', after?: string) =>
      store.listOwned({ accountId, kind: 'video', order, limit: 2, ...(after ? { after } : {}) });
    const first = await page('desc');
    expect(first.map((task) => task.id)).toEqual([tasks[2].id, tasks[1].id]);
    expect(first[0].request).toEqual({ prompt: 'a kite' });
    expect((await page('desc', tasks[1].id)).map((task) => task.id)).toEqual([tasks[0].id]);
    expect((await page('asc', tasks[0].id)).map((task) => task.id)).toEqual([tasks[1].id, tasks[2].id]);
  });

  it('hides a finished task and leaves an unfinished one listed', async () => {
    const running = await created({ accountId: 'acct_delete' });
    const done = await created({ accountId: 'acct_delete' });
    await store.transition(done.id, 'queued', 'failed', { failureReason: 'overload: busy' });

    expect(await store.markDeleted(running.id, 'acct_delete')).toBe(false);
    expect(await store.markDeleted(done.id, 'acct_other')).toBe(false);
    expect(await store.markDeleted(done.id, 'acct_delete')).toBe(true);
    expect(await store.markDeleted(done.id, 'acct_delete')).toBe(false);
    expect(await store.findOwned(done.id, 'acct_delete')).toBeNull();
    const listed = await store.listOwned({
      accountId: 'acct_delete',
      kind: 'video',
      order: 'asc',
      limit: 10,
    });
    expect(listed.map((task) => task.id)).toEqual([running.id]);
  });

  it('finds a task by its key’s idempotency key', async () => {
    const task = await created({ idempotencyKey: 'idem-owned' });
    expect((await store.findByIdempotencyKey('key_1', 'idem-owned'))?.id).toBe(task.id);
    expect(await store.findByIdempotencyKey('key_2', 'idem-owned')).toBeNull();
  });
});
