import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { ByteStrings } from '@gateway/providers-core';
import { createTestDatabase, type TestDatabase } from '@gateway/testing';
import type { Pool } from 'pg';
import { TaskStore, type NewTask } from './task-store';

describe('TaskStore (Postgres)', () => {
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

  function newTask(overrides: Partial<NewTask> = {}): NewTask {
    sequence += 1;
    return {
      id: `task_store_${sequence}`,
      kind: 'video',
      keyId: 'key_1',
      accountId: 'acct_1',
      model: 'gamma-2',
      request: { prompt: 'a lighthouse' },
      deadlineAt: new Date(Date.now() + 60_000),
      ...overrides,
    };
  }

  it('creates a queued task', async () => {
    const { task, created } = await store.create(newTask());
    expect(created).toBe(true);
    expect(task.status).toBe('queued');
    expect(task.upstreamHandle).toBeNull();
  });

  it('writes the row it answers with, long strings and timestamps included', async () => {
    const image = `data:image/png;base64,${'iVBORw0KGgo'.repeat(20_000)}`;
    const request = {
      prompt: 'say "hi" \\ twice',
      images: [image, 'https://example.test/b.png', `${image}x`],
      subjects: [{ id: 'cat', images: [image] }],
      note: 'written \\u0000abc:0, not a placeholder',
    };
    const { task } = await store.create(newTask({ request, priceSnapshot: { perCallMicros: '5' } }));
    const stored = await store.findById(task.id);
    expect(stored).toEqual(task);
    expect(stored?.request).toEqual(request);
  });

  describe('requests with long strings, copied to the row in pieces', () => {
    const image = `data:image/png;base64,${'iVBORw0KGgo'.repeat(20_000)}`;
    /** Of a kind of its own, so that the deadline queries of the other tests do not see them. */
    const copyTask = (overrides: Partial<NewTask>) => newTask({ kind: 'copy-test', ...overrides });

    it("writes images held as the body's bytes as the strings they stand for", async () => {
      const byteStrings = new ByteStrings();
      const webp = `data:image/webp;base64,${'UklGR'.repeat(30_000)}`;
      const [pngToken, webpToken] = [byteStrings.add(Buffer.from(image)), byteStrings.add(Buffer.from(webp))];
      const request = {
        prompt: 'a "quoted" \\ prompt',
        images: [pngToken],
        subjects: [{ id: 'cat', images: [webpToken, pngToken, 'https://example.test/c.png'] }],
      };
      const { task, created } = await store.create(copyTask({ request, byteStrings }));
      expect(created).toBe(true);
      const stored = await store.findById(task.id);
      expect(stored?.request).toEqual({
        ...request,
        images: [image],
        subjects: [{ id: 'cat', images: [webp, image, 'https://example.test/c.png'] }],
      });
    });

    it('writes long strings with escapes, non-ASCII text and a surrogate pair cut by a piece boundary', async () => {
      const boundary = 64 * 1024;
      // The emoji's two UTF-16 units sit either side of the first piece's end.
      const cut = `${'a'.repeat(boundary - 1)}\u{1F600}${'b'.repeat(10)}`;
      const escapes = `${'line\n\ttab "quote" \\ backslash é 字 '.repeat(5_000)}end`;
      const request = { cut, escapes, short: 'x' };
      const { task } = await store.create(copyTask({ request }));
      const stored = await store.findById(task.id);
      expect(stored?.request).toEqual(request);
      expect((stored?.request as { cut: string }).cut.codePointAt(boundary - 1)).toBe(0x1f600);
    });

    it('gives back the first task for a repeated idempotency key', async () => {
      const request = { images: [image] };
      const first = await store.create(copyTask({ request, idempotencyKey: 'idem-long' }));
      const second = await store.create(copyTask({ request, idempotencyKey: 'idem-long' }));
      expect(first.created).toBe(true);
      expect(second).toEqual({ task: first.task, created: false });
    });

    it('rejects a request Postgres refuses (U+0000 in a long string), writing nothing, and goes on writing', async () => {
      const refused = copyTask({ request: { images: [`${image}\u0000`] } });
      await expect(store.create(refused)).rejects.toMatchObject({ code: '22P05' });
      expect(await store.findById(refused.id)).toBeNull();
      // Every connection of the pool is fine: as many creates at once as it holds, the copy table empty.
      const next = await Promise.all(
        Array.from({ length: 4 }, () => store.create(copyTask({ request: { images: [image] } }))),
      );
      expect(next.every(({ created }) => created)).toBe(true);
      const leftovers = await pool.query<{ n: number }>(
        "select count(*)::int as n from pg_class where relname = 'task_request_copies' and relpersistence = 'p'",
      );
      expect(leftovers.rows[0].n).toBe(0);
    });
  });

  it('returns the first task for a repeated idempotency key of the same key', async () => {
    const first = await store.create(newTask({ idempotencyKey: 'idem-1' }));
    const second = await store.create(newTask({ idempotencyKey: 'idem-1' }));
    expect(second).toEqual({ task: first.task, created: false });
    const other = await store.create(newTask({ idempotencyKey: 'idem-1', keyId: 'key_2' }));
    expect(other.created).toBe(true);
  });

  it('rethrows a conflict that is not an idempotency replay', async () => {
    const row = newTask();
    await store.create(row);
    await expect(store.create(row)).rejects.toThrow();
  });

  describe('rows that arrive together', () => {
    /** A store whose row writes are counted: one count per statement sent. */
    function countingStore() {
      const counter = { statements: 0 };
      const counted = new TaskStore(prisma, {
        query: ((...args: Parameters<Pool['query']>) => {
          counter.statements += 1;
          return (pool.query as (...a: unknown[]) => unknown)(...args);
        }) as Pool['query'],
        connect: (() => pool.connect()) as Pool['connect'],
      });
      return { counted, counter };
    }

    /** Of a kind of its own, so that the deadline queries of the other tests do not see them. */
    const batchTask = (overrides: Partial<NewTask> = {}) => newTask({ kind: 'batch-test', ...overrides });

    it('are written by one statement while another is in flight, each row as it was answered', async () => {
      const { counted, counter } = countingStore();
      const rows = Array.from({ length: 40 }, (_, index) =>
        batchTask({ model: `model-${index}`, request: { prompt: `prompt ${index}`, seconds: index } }),
      );
      const created = await Promise.all(rows.map((row) => counted.create(row)));
      expect(counter.statements).toBe(2);
      expect(created.every((result) => result.created)).toBe(true);
      for (const { task } of created) expect(await store.findById(task.id)).toEqual(task);
    });

    it('give one task to an idempotency key that two of them carry', async () => {
      const { counted } = countingStore();
      const [, first, second] = await Promise.all([
        counted.create(batchTask()),
        counted.create(batchTask({ idempotencyKey: 'idem-batch', request: { prompt: 'same' } })),
        counted.create(batchTask({ idempotencyKey: 'idem-batch', request: { prompt: 'same' } })),
      ]);
      expect(first.created).toBe(true);
      expect(second).toEqual({ task: first.task, created: false });
    });

    it('fail alone when Postgres refuses one of them, the others written', async () => {
      const { counted } = countingStore();
      const duplicate = batchTask();
      await store.create(duplicate);
      const results = await Promise.allSettled([
        counted.create(batchTask()),
        counted.create(batchTask()),
        counted.create(duplicate),
        // jsonb has no place for U+0000.
        counted.create(batchTask({ request: { prompt: 'nul \u0000 inside' } })),
        counted.create(batchTask()),
      ]);
      expect(results.map((result) => result.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'rejected',
        'rejected',
        'fulfilled',
      ]);
      for (const result of results) {
        if (result.status === 'fulfilled') expect(await store.findById(result.value.task.id)).not.toBeNull();
      }
    });
  });

  it('lets exactly one of two racing transitions win', async () => {
    const { task } = await store.create(newTask());
    await store.transition(task.id, 'queued', 'processing');
    const results = await Promise.all([
      store.transition(task.id, 'processing', 'completed', { resultUrl: 'http://upstream.test/a.mp4' }),
      store.transition(task.id, 'processing', 'failed', { failureReason: 'overload: busy' }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const stored = await store.findById(task.id);
    expect(stored?.status).toBe(results[0] ? 'completed' : 'failed');
  });

  it('refuses a transition the state machine does not allow', async () => {
    const { task } = await store.create(newTask());
    await expect(store.transition(task.id, 'queued', 'completed')).rejects.toThrow(
      /cannot change from queued to completed/,
    );
    expect((await store.findById(task.id))?.status).toBe('queued');
  });

  it('writes a patch only while the task is in the given status', async () => {
    const { task } = await store.create(newTask());
    expect(await store.updateWhile(task.id, 'processing', { progress: 40 })).toBe(false);
    await store.transition(task.id, 'queued', 'processing');
    expect(await store.updateWhile(task.id, 'processing', { upstreamHandle: { id: 'up-1' } })).toBe(true);
    expect((await store.findById(task.id))?.upstreamHandle).toEqual({ id: 'up-1' });
  });

  it('reclaims a submission only once, and only while no handle is stored', async () => {
    const { task } = await store.create(newTask());
    await store.transition(task.id, 'queued', 'processing');
    const claimed = await store.findById(task.id);
    const claimedAt = claimed?.updatedAt ?? new Date(0);
    const attempts = await Promise.all([
      store.reclaimSubmission(task.id, claimedAt),
      store.reclaimSubmission(task.id, claimedAt),
    ]);
    expect(attempts.filter(Boolean)).toHaveLength(1);

    const renewed = await store.findById(task.id);
    await store.updateWhile(task.id, 'processing', { upstreamHandle: 'up-2' });
    const afterHandle = await store.findById(task.id);
    expect(await store.reclaimSubmission(task.id, afterHandle?.updatedAt ?? new Date(0))).toBe(false);
    expect(renewed?.updatedAt.getTime()).toBeGreaterThanOrEqual(claimedAt.getTime());
  });

  it('finds open tasks past their deadline, oldest first, of the given kinds', async () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const late = await store.create(newTask({ deadlineAt: new Date('2029-12-31T23:00:00Z') }));
    const later = await store.create(
      newTask({ deadlineAt: new Date('2029-12-31T23:30:00Z'), kind: 'music' }),
    );
    const image = await store.create(
      newTask({ deadlineAt: new Date('2029-12-31T22:00:00Z'), kind: 'image' }),
    );
    const done = await store.create(newTask({ deadlineAt: new Date('2029-12-31T21:00:00Z') }));
    await store.transition(done.task.id, 'queued', 'cancelled');

    const overdue = await store.findOverdue(now, 10, ['video', 'music']);
    const ids = overdue.map((task) => task.id);
    expect(ids).toContain(late.task.id);
    expect(ids).toContain(later.task.id);
    expect(ids).not.toContain(image.task.id);
    expect(ids).not.toContain(done.task.id);
    expect(ids.indexOf(late.task.id)).toBeLessThan(ids.indexOf(later.task.id));
    expect(await store.findOverdue(now, 1)).toHaveLength(1);
  });
});
