import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { createTestDatabase, type TestDatabase } from '@gateway/testing';
import type { Pool } from 'pg';
import { TaskStore, type NewTask } from './task-store';

const ACCOUNT = 'acct_endings';
const OTHER_ACCOUNT = 'acct_endings_other';
const INLINE_IMAGE = `data:image/png;base64,${'A'.repeat(2_000)}`;

describe('status changes and handles written together (TaskTransitionWriter, TaskHandleWriter, Postgres)', () => {
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
    const endpoint = (id: string, accountId: string | null, events: string[]) => ({
      id,
      url: `https://hooks.example.test/${id}`,
      events,
      accountId,
      secretCiphertext: 'unused',
      secretKeyVersion: 1,
    });
    await prisma.webhookEndpoint.createMany({
      data: [
        endpoint('we_account', ACCOUNT, ['video.completed', 'video.failed', 'video.cancelled']),
        endpoint('we_everyone', null, ['video.completed']),
        endpoint('we_other_account', OTHER_ACCOUNT, ['video.completed', 'video.failed']),
        { ...endpoint('we_disabled', ACCOUNT, ['video.completed']), status: 'disabled' },
      ],
    });
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
    await database.drop();
  });

  /** A store whose pg statements are counted (Prisma's go through the shared pool uncounted). */
  function countingStore(): { counted: TaskStore; counter: { statements: number } } {
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

  async function queuedTask(overrides: Partial<NewTask> = {}): Promise<string> {
    sequence += 1;
    const id = `task_transition_${sequence}`;
    await store.create({
      id,
      kind: 'video',
      keyId: 'key_endings',
      accountId: ACCOUNT,
      model: 'delta-2',
      request: { prompt: `ending ${sequence}`, images: [INLINE_IMAGE] },
      deadlineAt: new Date(Date.now() + 60_000),
      ...overrides,
    });
    return id;
  }

  async function processingTask(overrides: Partial<NewTask> = {}): Promise<string> {
    const id = await queuedTask(overrides);
    await store.transition(id, 'queued', 'processing');
    return id;
  }

  const markerOf = (image: string) =>
    `[inline input of ${image.length} characters, dropped once the upstream accepted the task]`;

  const eventsOf = (taskId: string) =>
    prisma.webhookEvent.findMany({ where: { subjectId: taskId }, orderBy: { type: 'asc' } });
  const endpointsOf = async (taskId: string) => {
    const events = await eventsOf(taskId);
    const deliveries = await prisma.webhookDelivery.findMany({
      where: { eventId: { in: events.map((event) => event.id) } },
    });
    return deliveries.map((delivery) => delivery.endpointId).sort();
  };
  const statusEventsOf = async (taskId: string) =>
    (
      await prisma.$queryRaw<Array<{ status: string; progress: number }>>`
      SELECT status, progress FROM task_events WHERE task_id = ${taskId} ORDER BY seq`
    ).map((event) => `${event.status}:${event.progress}`);

  it('writes endings that arrive while one is in flight in one statement, each with its own columns and event', async () => {
    const ids = await Promise.all(Array.from({ length: 30 }, () => processingTask()));
    const { counted, counter } = countingStore();
    const completedAt = new Date('2026-11-29T13:00:00.123Z');
    const won = await Promise.all(
      ids.map((id, index) =>
        index % 3 === 2
          ? counted.transition(id, 'processing', 'failed', { failureReason: `overload: busy ${index}` })
          : counted.transition(id, 'processing', 'completed', {
              progress: 100,
              resultUrl: `https://upstream.test/${index}.mp4`,
              mediaSeconds: index + 1,
              inputTokens: index,
              outputTokens: 2 * index,
              completedAt,
            }),
      ),
    );
    expect(won.every(Boolean)).toBe(true);
    // The first ending goes alone (nothing was in flight), the other 29 together in the next statement.
    expect(counter.statements).toBe(2);

    for (const [index, id] of ids.entries()) {
      const row = await store.findById(id);
      const failed = index % 3 === 2;
      expect(row).toMatchObject(
        failed
          ? { status: 'failed', failureReason: `overload: busy ${index}`, resultUrl: null, progress: 0 }
          : {
              status: 'completed',
              progress: 100,
              resultUrl: `https://upstream.test/${index}.mp4`,
              mediaSeconds: index + 1,
              inputTokens: index,
              outputTokens: 2 * index,
              completedAt,
              failureReason: null,
            },
      );
      // The inline image is replaced by a marker of its length in the same statement.
      expect(row?.request).toEqual({
        prompt: expect.any(String),
        images: [markerOf(INLINE_IMAGE)],
      });
      expect((await eventsOf(id)).map((event) => [event.type, event.accountId])).toEqual([
        [failed ? 'video.failed' : 'video.completed', ACCOUNT],
      ]);
      // Subscribed, enabled endpoints of the task's account or of every account; never another account's.
      expect(await endpointsOf(id)).toEqual(failed ? ['we_account'] : ['we_account', 'we_everyone']);
      expect(await statusEventsOf(id)).toEqual([
        'queued:0',
        'processing:0',
        failed ? 'failed:0' : 'completed:100',
      ]);
    }
  });

  it('lets one of two endings of one task in one batch win, and writes only its event', async () => {
    const ids = await Promise.all(Array.from({ length: 4 }, () => processingTask()));
    const { counted, counter } = countingStore();
    const [, completed, cancelled] = await Promise.all([
      // In flight first, so that the two racing endings of ids[1] go in the same statement.
      counted.transition(ids[0], 'processing', 'completed', { progress: 100 }),
      counted.transition(ids[1], 'processing', 'completed', { progress: 100, resultUrl: 'https://u.test/1' }),
      counted.transition(ids[1], 'processing', 'cancelled', { failureReason: 'cancelled by its client' }),
    ]);
    expect(counter.statements).toBe(2);
    expect([completed, cancelled].filter(Boolean)).toHaveLength(1);
    const row = await store.findById(ids[1]);
    expect(row?.status).toBe(completed ? 'completed' : 'cancelled');
    expect((await eventsOf(ids[1])).map((event) => event.type)).toEqual([
      completed ? 'video.completed' : 'video.cancelled',
    ]);
    expect(await statusEventsOf(ids[1])).toHaveLength(3);
  });

  it('writes nothing for an ending that lost its compare-and-swap, in a batch or alone', async () => {
    const id = await processingTask();
    expect(await store.transition(id, 'processing', 'failed', { failureReason: 'timeout: gone' })).toBe(true);
    const { counted } = countingStore();
    const results = await Promise.all([
      counted.transition(await processingTask(), 'processing', 'completed', { progress: 100 }),
      counted.transition(id, 'processing', 'completed', { progress: 100, resultUrl: 'https://late.test' }),
      counted.transition(id, 'queued', 'cancelled', { failureReason: 'too late' }),
    ]);
    expect(results).toEqual([true, false, false]);
    expect(await store.findById(id)).toMatchObject({
      status: 'failed',
      failureReason: 'timeout: gone',
      resultUrl: null,
    });
    expect((await eventsOf(id)).map((event) => event.type)).toEqual(['video.failed']);
  });

  it('keeps the columns an ending does not name, and clears one it names as null', async () => {
    const id = await processingTask();
    await store.updateWhile(id, 'processing', { progress: 60, resultUrl: 'https://preview.test/a.mp4' });
    expect(await store.transition(id, 'processing', 'failed', { resultUrl: null, failureReason: 'x' })).toBe(
      true,
    );
    expect(await store.findById(id)).toMatchObject({ progress: 60, resultUrl: null, completedAt: null });
  });

  it('ends a task of a kind without events, writing no event', async () => {
    const id = await processingTask({ kind: 'asset' });
    expect(await store.transition(id, 'processing', 'completed', { progress: 100 })).toBe(true);
    expect((await store.findById(id))?.status).toBe('completed');
    expect(await eventsOf(id)).toEqual([]);
  });

  it('fails an ending Postgres refuses alone, and writes the others of its batch', async () => {
    const ids = await Promise.all(Array.from({ length: 4 }, () => processingTask()));
    const { counted } = countingStore();
    const results = await Promise.allSettled([
      counted.transition(ids[0], 'processing', 'completed', { progress: 100 }),
      counted.transition(ids[1], 'processing', 'completed', { progress: 100, mediaSeconds: 3 }),
      // Beyond int4: Postgres refuses the value (numeric_value_out_of_range, class 22).
      counted.transition(ids[2], 'processing', 'completed', { progress: 100, mediaSeconds: 2 ** 40 }),
      counted.transition(ids[3], 'processing', 'failed', { failureReason: 'content_policy: refused' }),
    ]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((await store.findById(ids[1]))?.status).toBe('completed');
    expect((await store.findById(ids[2]))?.status).toBe('processing');
    expect(await eventsOf(ids[2])).toEqual([]);
    expect((await store.findById(ids[3]))?.status).toBe('failed');
    expect((await eventsOf(ids[3])).map((event) => event.type)).toEqual(['video.failed']);
  });

  it('claims tasks together without an event, keeping their inline inputs for the submission', async () => {
    const ids = await Promise.all(Array.from({ length: 10 }, () => queuedTask()));
    const { counted, counter } = countingStore();
    // The claim's time is what the submission's recovery reads (TaskStore.reclaimSubmission).
    const claimedFrom = Date.now() - 1;
    const claimed = await Promise.all([
      ...ids.map((id) => counted.transition(id, 'queued', 'processing')),
      // A second claim of one task in the same batch (two workers): one of the two wins.
      counted.transition(ids[4], 'queued', 'processing'),
    ]);
    expect(counter.statements).toBe(2);
    expect(claimed.filter(Boolean)).toHaveLength(10);
    expect([claimed[4], claimed[10]].filter(Boolean)).toHaveLength(1);
    for (const id of ids) {
      const row = await store.findById(id);
      expect(row).toMatchObject({ status: 'processing', progress: 0, upstreamHandle: null });
      expect(row?.request).toMatchObject({ images: [INLINE_IMAGE] });
      expect(row?.updatedAt.getTime()).toBeGreaterThanOrEqual(claimedFrom);
      expect(await eventsOf(id)).toEqual([]);
      expect(await statusEventsOf(id)).toEqual(['queued:0', 'processing:0']);
    }
  });

  it('stores handles together, only on tasks still processing, dropping their inline inputs', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, () => processingTask()));
    await store.transition(ids[2], 'processing', 'cancelled', { failureReason: 'cancelled by its client' });
    const { counted, counter } = countingStore();
    const stored = await Promise.all(
      ids.map((id, index) => counted.storeHandle(id, { videoId: `vid_${index}` })),
    );
    expect(counter.statements).toBe(2);
    expect(stored).toEqual([true, true, false, true, true, true]);
    for (const [index, id] of ids.entries()) {
      const row = await store.findById(id);
      expect(row?.upstreamHandle).toEqual(index === 2 ? null : { videoId: `vid_${index}` });
      expect(row?.request).toMatchObject({ images: [markerOf(INLINE_IMAGE)] });
    }
  });

  it('fails a handle Postgres refuses alone, and stores the others of its batch', async () => {
    const ids = await Promise.all(Array.from({ length: 4 }, () => processingTask()));
    const { counted } = countingStore();
    const results = await Promise.allSettled(
      // jsonb has no place for U+0000.
      ids.map((id, index) =>
        counted.storeHandle(id, { videoId: index === 2 ? 'nul \u0000' : `vid_${index}` }),
      ),
    );
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((await store.findById(ids[3]))?.upstreamHandle).toEqual({ videoId: 'vid_3' });
    expect((await store.findById(ids[2]))?.upstreamHandle).toBeNull();
  });
});
