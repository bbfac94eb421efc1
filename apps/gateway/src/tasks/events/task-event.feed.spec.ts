import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { TaskEvent, TaskEventRow } from './task-event';
import { TaskEventFeed } from './task-event.feed';

/**
 * A task_events table in memory behind the feed's one query: each read is held until the test lets it
 * answer, so that what arrives meanwhile can be checked (at most one read in flight, the rest collected).
 */
class RecordedEvents {
  readonly rows: TaskEventRow[] = [];
  /** The tasks each read asked for, with their cursors. */
  readonly reads: Array<Record<string, number>> = [];
  private readonly held: Array<() => void> = [];
  failNext = false;

  record(taskId: string, progress: number): void {
    this.rows.push({ seq: String(this.rows.length + 1), task_id: taskId, status: 'processing', progress });
  }

  /** Lets every held read answer. */
  release(): void {
    for (const answer of this.held.splice(0)) answer();
  }

  get inFlight(): number {
    return this.held.length;
  }

  readonly pool = {
    query: async (_sql: string, [taskIds, afterSeqs]: [string[], number[]]) => {
      this.reads.push(Object.fromEntries(taskIds.map((taskId, index) => [taskId, afterSeqs[index]])));
      // What the statement sees is fixed when it starts, as Postgres's snapshot is.
      const rows = this.rows.filter((row) => {
        const index = taskIds.indexOf(row.task_id);
        return index >= 0 && Number(row.seq) > afterSeqs[index];
      });
      const failing = this.failNext;
      this.failNext = false;
      await new Promise<void>((resolve) => this.held.push(resolve));
      if (failing) throw new Error('connection terminated');
      return { rows };
    },
  } as unknown as Pool;
}

const logger = { warn: () => undefined } as unknown as Logger;
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('TaskEventFeed', () => {
  let recorded: RecordedEvents;
  let delivered: TaskEvent[];
  let feed: TaskEventFeed;

  beforeEach(() => {
    recorded = new RecordedEvents();
    delivered = [];
    feed = new TaskEventFeed(recorded.pool, 60_000, (event) => delivered.push(event), logger);
  });
  afterEach(() => feed.stop());

  it('reads only the announced tasks it follows, and nothing for a task it does not follow', async () => {
    feed.follow('video_a', 0);
    feed.follow('video_b', 0);
    recorded.record('video_a', 10);
    recorded.record('video_b', 20);
    feed.wake(['video_a', 'video_unknown']);
    feed.wake(['video_unknown']);
    await settle();
    recorded.release();
    await settle();
    expect(recorded.reads).toEqual([{ video_a: 0 }]);
    expect(delivered.map((event) => [event.taskId, event.progress])).toEqual([['video_a', 10]]);
  });

  it('keeps one read in flight and collects what is announced meanwhile into the next one', async () => {
    for (const taskId of ['video_a', 'video_b', 'video_c']) feed.follow(taskId, 0);
    recorded.record('video_a', 1);
    feed.wake(['video_a']);
    await settle();
    recorded.record('video_b', 2);
    recorded.record('video_c', 3);
    recorded.record('video_a', 4);
    feed.wake(['video_b']);
    feed.wake(['video_c', 'video_a']);
    feed.wake(['video_b']);
    await settle();
    expect(recorded.inFlight).toBe(1);
    recorded.release();
    await settle();
    expect(recorded.inFlight).toBe(1);
    recorded.release();
    await settle();
    // The first read moved video_a's cursor to 1: the second starts there.
    expect(recorded.reads).toEqual([{ video_a: 0 }, { video_b: 0, video_c: 0, video_a: 1 }]);
    expect(delivered.map((event) => event.progress)).toEqual([1, 2, 3, 4]);
  });

  it('reads every followed task at the fallback poll, and each event once', async () => {
    feed.follow('video_a', 0);
    feed.follow('video_b', 0);
    recorded.record('video_a', 1);
    recorded.record('video_b', 2);
    const polled = feed.poll();
    // Announced while the poll runs: read after it, from the cursor the poll moved.
    feed.wake(['video_a']);
    await settle();
    recorded.release();
    await settle();
    expect(recorded.reads).toEqual([{ video_a: 0, video_b: 0 }, { video_a: 1 }]);
    recorded.release();
    await polled;
    expect(delivered.map((event) => event.progress)).toEqual([1, 2]);
  });

  it('moves no cursor on a failed read, so the fallback poll delivers what it missed', async () => {
    feed.follow('video_a', 0);
    recorded.record('video_a', 7);
    recorded.failNext = true;
    feed.wake(['video_a']);
    await settle();
    recorded.release();
    await settle();
    expect(delivered).toEqual([]);
    // Not asked again at once (that would spin through an outage).
    expect(recorded.inFlight).toBe(0);
    const polled = feed.poll();
    await settle();
    recorded.release();
    await polled;
    expect(recorded.reads).toEqual([{ video_a: 0 }, { video_a: 0 }]);
    expect(delivered.map((event) => event.progress)).toEqual([7]);
  });

  it('hands nothing over for a task unfollowed while its read ran', async () => {
    feed.follow('video_a', 0);
    recorded.record('video_a', 5);
    feed.wake(['video_a']);
    await settle();
    feed.unfollow('video_a');
    recorded.release();
    await settle();
    expect(delivered).toEqual([]);
  });
});
