import { type BatchOutcomes, StatementBatcher } from '@gateway/db/statement-batcher';
import type { Pool } from 'pg';
import type { JsonHandle } from './json-value';

interface StoredHandle {
  id: string;
  handle: JsonHandle;
}

/** Most handles in one statement, and statements in flight at once (as for transitions). */
const BATCH_LIMITS = { maxBatch: 128, maxInFlight: 1 };

/**
 * The upstream handles of tasks still `processing`, each with its request's inline inputs replaced by
 * markers of their length (the database's own function, migration task_inline_inputs_dropped, so the
 * bytes never travel back to this process). Returns the ids whose row was written.
 */
const STORE_HANDLES = {
  name: 'tasks_store_handles',
  text: `
UPDATE tasks t
   SET upstream_handle = i.handle,
       request = task_request_without_inline_inputs(t.request),
       updated_at = now() AT TIME ZONE 'UTC'
  FROM jsonb_to_recordset($1::jsonb) AS i(id text, handle jsonb)
 WHERE t.id = i.id AND t.status = 'processing'
RETURNING t.id`,
};

// perf-machinery: task-handle-batches (docs/performance-machinery.md)
/**
 * Stores upstream handles: those that arrive together (a worker submitting a queue of tasks just
 * created) go in one statement and one commit.
 */
export class TaskHandleWriter {
  private readonly batcher: StatementBatcher<StoredHandle, boolean>;

  constructor(private readonly pool: Pick<Pool, 'query'>) {
    this.batcher = new StatementBatcher((items) => this.storeBatch(items), BATCH_LIMITS);
  }

  /** Whether the task was still `processing` and now holds the handle. */
  store(taskId: string, handle: JsonHandle): Promise<boolean> {
    return this.batcher.call({ id: taskId, handle });
  }

  private async storeBatch(items: StoredHandle[]): Promise<BatchOutcomes<boolean>> {
    try {
      return await this.storeTogether(items);
    } catch (error) {
      if (items.length === 1 || !isRowError(error)) throw error;
    }
    // One at a time, so that a handle Postgres refuses fails alone: this runs only after a refused batch.
    const outcomes: BatchOutcomes<boolean> = [];
    for (const item of items) {
      try {
        outcomes.push(...(await this.storeTogether([item])));
      } catch (error) {
        outcomes.push({ status: 'rejected', reason: error });
      }
    }
    return outcomes;
  }

  private async storeTogether(items: StoredHandle[]): Promise<BatchOutcomes<boolean>> {
    const { rows } = await this.pool.query<{ id: string }>({
      ...STORE_HANDLES,
      values: [JSON.stringify(items)],
    });
    const stored = new Set(rows.map((row) => row.id));
    return items.map((item) => ({ status: 'fulfilled', value: stored.has(item.id) }));
  }
}

/** A data exception or an integrity violation: what one handle of a batch can cause alone. */
function isRowError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && ['22', '23'].includes(code.slice(0, 2));
}
