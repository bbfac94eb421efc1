import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { createTestDatabase, type TestDatabase } from '@gateway/testing';
import type { Pool } from 'pg';
import { EventDataRenderer, SETTLEMENT_WAIT_MS } from './event-data.renderer';

const BASE_URL = 'https://gateway.example.test';

describe('EventDataRenderer (Postgres)', () => {
  let database: TestDatabase;
  let pool: Pool;
  let prisma: PrismaClient;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPgPool(database.url, 2);
    prisma = createPrismaClient(pool);
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
    await database.drop();
  });

  async function task(
    id: string,
    kind: string,
    fields: { holdRequestId?: string; costMicros?: bigint } = {},
  ) {
    await prisma.task.create({
      data: {
        id,
        kind,
        keyId: 'key_1',
        accountId: 'acct_1',
        model: `${kind}-model`,
        status: 'completed',
        progress: 100,
        request: { prompt: 'a lighthouse', seconds: 4 },
        deadlineAt: new Date(Date.now() + 60_000),
        completedAt: new Date(),
        ...fields,
      },
    });
  }

  const eventAbout = (subjectId: string, ageMs = 0) => ({
    type: 'video.completed',
    subjectId,
    createdAt: new Date(Date.now() - ageMs),
  });

  it('waits for the settlement of a task with a hold, then shows its cost as the GET route does', async () => {
    const renderer = new EventDataRenderer(prisma, BASE_URL);
    await task('video_settling', 'video', { holdRequestId: 'video_settling' });
    expect(await renderer.render(eventAbout('video_settling'))).toBeUndefined();
    await prisma.task.update({ where: { id: 'video_settling' }, data: { costMicros: 1234n } });
    expect(await renderer.render(eventAbout('video_settling'))).toMatchObject({
      id: 'video_settling',
      object: 'video',
      status: 'completed',
      video_url: `${BASE_URL}/v1/videos/video_settling/content`,
      cost_micros: '1234',
    });
  });

  it('renders without the cost once the settlement is overdue (its writer died; the sweep settles later)', async () => {
    await task('video_stranded', 'video', { holdRequestId: 'video_stranded' });
    const data = await new EventDataRenderer(prisma, BASE_URL).render(
      eventAbout('video_stranded', SETTLEMENT_WAIT_MS + 1),
    );
    expect(data).toMatchObject({ id: 'video_stranded', status: 'completed' });
    expect(data).not.toHaveProperty('cost_micros');
  });

  it('takes a renderer of a kind and id prefix before the kind’s own', async () => {
    await task('bt_image', 'image');
    await task('imgjob_image', 'image');
    const renderer = new EventDataRenderer(prisma, BASE_URL, {
      'image:imgjob': (row) => ({ id: row.id, object: 'image.task', created: 1 }),
    });
    expect(await renderer.render({ ...eventAbout('imgjob_image'), type: 'image.completed' })).toEqual({
      id: 'imgjob_image',
      object: 'image.task',
      created: 1,
    });
    expect(await renderer.render({ ...eventAbout('bt_image'), type: 'image.completed' })).toMatchObject({
      id: 'bt_image',
      object: 'image.task',
      model: 'image-model',
    });
  });

  it('answers the id alone for a row the retention sweep already deleted', async () => {
    const renderer = new EventDataRenderer(prisma, BASE_URL);
    expect(await renderer.render(eventAbout('video_gone'))).toEqual({ id: 'video_gone' });
    expect(await renderer.render({ ...eventAbout('asset_gone'), type: 'asset.active' })).toEqual({
      id: 'asset_gone',
    });
  });
});
