import { createPgPool } from '@gateway/db';
import { createTestDatabase, type TestDatabase } from '@gateway/testing';
import type { Pool } from 'pg';
import { TaskRetentionSweep } from './task-retention.sweep';

const DAY_MS = 86_400_000;
const NOW = new Date('2026-11-29T12:00:00.000Z');
const RETENTION = { taskDays: 90, requestDays: 30 };
const ACCOUNT = 'acct_retention';

const IMAGE = `data:image/png;base64,${'iVBORw0KGgo'.repeat(10_000)}`;
/** A video call as a task row stores it (VideoCall), with the bulky parts a request can carry. */
const VIDEO_CALL = {
  kind: 'video',
  family: 'delta',
  mode: 'first_frame',
  prompt: 'a kite over the dunes',
  seconds: 8,
  resolution: '720p',
  size: '1280x720',
  aspectRatio: null,
  images: [{ role: 'first_frame', url: IMAGE }],
  clips: [],
  subjects: [],
  metadata: { note: 'x'.repeat(60_000) },
  extras: { watermark: false },
  remixOf: null,
  opaque: 'y'.repeat(100),
};

interface Row {
  id: string;
  status: string;
  /** Days before NOW of the row's last write. */
  ageDays: number;
  /** The status of the row's hold; none: no hold row. */
  hold?: 'open' | 'settled';
}

/**
 * The retention sweep against Postgres: finished rows past TASK_RETENTION_DAYS are deleted and the
 * requests of those past TASK_REQUEST_RETENTION_DAYS cleared, in batches; unfinished rows, rows whose
 * hold is still open, and every hold and ledger row stay.
 */
describe('TaskRetentionSweep (Postgres)', () => {
  let database: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPgPool(database.url, 2);
    await pool.query(`INSERT INTO accounts (id, name, balance) VALUES ($1, 'retention', 1000000)`, [ACCOUNT]);
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });
  // The ledger is append-only (a trigger refuses DELETE): each test's rows have ids of their own.
  beforeEach(async () => {
    await pool.query('DELETE FROM tasks');
    await pool.query('DELETE FROM holds');
  });

  /** Timestamps as Prisma writes them: UTC wall times in `timestamp(3)` columns. */
  const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY_MS).toISOString();

  async function insert(rows: Row[]): Promise<void> {
    for (const row of rows) {
      const at = daysAgo(row.ageDays);
      if (row.hold) {
        await pool.query(
          `INSERT INTO holds (request_id, account_id, key_id, model, route, amount, status, created_at, expires_at)
           VALUES ($1, $2, 'key_1', 'delta-2', 'videos', 100, $3, $4::timestamptz AT TIME ZONE 'UTC',
                   $4::timestamptz AT TIME ZONE 'UTC')`,
          [row.id, ACCOUNT, row.hold, at],
        );
        await pool.query(
          `INSERT INTO ledger_entries (account_id, kind, amount, idempotency_key, request_id)
           VALUES ($1, 'hold', 100, $2, $3)`,
          [ACCOUNT, `hold:${row.id}`, row.id],
        );
      }
      await pool.query(
        `INSERT INTO tasks (id, kind, key_id, account_id, model, status, request, hold_request_id,
                            deadline_at, created_at, updated_at)
         VALUES ($1, 'video', 'key_1', $2, 'delta-2', $3, $4::jsonb, $5,
                 $6::timestamptz AT TIME ZONE 'UTC', $6::timestamptz AT TIME ZONE 'UTC',
                 $6::timestamptz AT TIME ZONE 'UTC')`,
        [row.id, ACCOUNT, row.status, JSON.stringify(VIDEO_CALL), row.hold ? row.id : null, at],
      );
    }
  }

  const taskIds = async () =>
    (await pool.query<{ id: string }>('SELECT id FROM tasks ORDER BY id')).rows.map((row) => row.id);
  const requestOf = async (id: string) =>
    (
      await pool.query<{ request: unknown; cleared: boolean }>(
        'SELECT request, request_cleared_at IS NOT NULL AS cleared FROM tasks WHERE id = $1',
        [id],
      )
    ).rows[0];
  const moneyRows = async () => {
    const [holds, ledger] = await Promise.all([
      pool.query<{ count: string }>('SELECT count(*) FROM holds'),
      pool.query<{ count: string }>('SELECT count(*) FROM ledger_entries'),
    ]);
    return { holds: Number(holds.rows[0].count), ledger: Number(ledger.rows[0].count) };
  };

  it('deletes finished rows past the task retention, keeping open ones, open holds and every money row', async () => {
    await insert([
      { id: 'old_completed', status: 'completed', ageDays: 91, hold: 'settled' },
      { id: 'old_failed', status: 'failed', ageDays: 200 },
      { id: 'old_cancelled', status: 'cancelled', ageDays: 91, hold: 'settled' },
      { id: 'old_unsettled', status: 'completed', ageDays: 120, hold: 'open' },
      { id: 'old_processing', status: 'processing', ageDays: 120, hold: 'open' },
      { id: 'old_queued', status: 'queued', ageDays: 120 },
      { id: 'recent_completed', status: 'completed', ageDays: 89, hold: 'settled' },
    ]);
    const money = await moneyRows();

    const result = await new TaskRetentionSweep(pool).run(RETENTION, NOW);

    expect(result.deleted).toBe(3);
    expect(await taskIds()).toEqual(['old_processing', 'old_queued', 'old_unsettled', 'recent_completed']);
    expect(await moneyRows()).toEqual(money);
  });

  it('clears the requests of finished rows past the request retention, once, keeping their scalars', async () => {
    await insert([
      { id: 'month_old', status: 'completed', ageDays: 31, hold: 'settled' },
      { id: 'month_old_unsettled', status: 'failed', ageDays: 31, hold: 'open' },
      { id: 'month_old_running', status: 'processing', ageDays: 31 },
      { id: 'week_old', status: 'completed', ageDays: 7 },
    ]);
    const sweep = new TaskRetentionSweep(pool);

    expect(await sweep.run(RETENTION, NOW)).toEqual({ deleted: 0, cleared: 1 });
    expect(await requestOf('month_old')).toEqual({
      cleared: true,
      request: {
        kind: 'video',
        family: 'delta',
        mode: 'first_frame',
        prompt: '',
        seconds: 8,
        resolution: '720p',
        size: '1280x720',
        aspectRatio: null,
        images: [],
        clips: [],
        subjects: [],
        metadata: {},
        extras: {},
        remixOf: null,
        opaque: '',
      },
    });
    for (const id of ['month_old_unsettled', 'month_old_running', 'week_old']) {
      expect(await requestOf(id)).toEqual({ cleared: false, request: VIDEO_CALL });
    }
    expect(await sweep.run(RETENTION, NOW)).toEqual({ deleted: 0, cleared: 0 });
  });

  it('works through a backlog in batches, and a retention of 0 keeps everything', async () => {
    await insert(
      Array.from({ length: 7 }, (_, index) => ({ id: `old_${index}`, status: 'completed', ageDays: 100 })),
    );

    expect(await new TaskRetentionSweep(pool, 2).run({ taskDays: 0, requestDays: 0 }, NOW)).toEqual({
      deleted: 0,
      cleared: 0,
    });
    expect(await taskIds()).toHaveLength(7);

    expect(await new TaskRetentionSweep(pool, 2, 3).run(RETENTION, NOW)).toEqual({ deleted: 6, cleared: 1 });
    expect(await new TaskRetentionSweep(pool, 2).run(RETENTION, NOW)).toEqual({ deleted: 1, cleared: 0 });
    expect(await taskIds()).toEqual([]);
  });
});
