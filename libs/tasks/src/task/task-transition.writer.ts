import { type BatchOutcomes, StatementBatcher } from '@gateway/db/statement-batcher';
import { newWebhookEventId, taskEventTypeOf } from '@gateway/webhooks/outbox';
import type { Pool } from 'pg';
import { TASK_KINDS } from './task-kinds';
import { TERMINAL_TASK_STATUSES, type TaskStatus } from './task-status';
import type { TaskPatch } from './task-store';

/** One status change: the compare-and-swap `from` → `to` with the columns written beside it. */
export interface TaskTransition {
  taskId: string;
  from: TaskStatus;
  to: TaskStatus;
  patch: TaskPatch;
}

/**
 * A transition as the statement reads it: `eventId` (the webhook event's id, if the change fires one)
 * also tells which of two transitions of one task in a batch won.
 */
interface TransitionItem {
  id: string;
  from: TaskStatus;
  to: TaskStatus;
  patch: TaskPatch;
  eventId: string;
}

/**
 * Most transitions in one statement, and statements in flight at once. One in flight: those that arrive
 * while it runs go together in the next (a burst of tasks ending, or claimed for submission, together).
 */
const BATCH_LIMITS = { maxBatch: 128, maxInFlight: 1 };

/**
 * SQLSTATE classes a transition can cause alone (a data exception, an integrity violation) or two
 * racing batches together (a deadlock, a serialization failure): the batch is then written again one
 * transition at a time, so that such a transition fails alone.
 */
const ALONE_AGAIN_CLASSES = ['22', '23', '40'];

/** The statuses whose transition drops the request's inline inputs (nothing sends them again). */
const TERMINAL_STATUSES = [...TERMINAL_TASK_STATUSES];

/** The webhook event each kind fires per terminal status (taskEventTypeOf), as the statement reads it. */
const EVENT_TYPES = JSON.stringify(
  Object.fromEntries(
    TASK_KINDS.map((kind) => [
      kind,
      Object.fromEntries(
        [...TERMINAL_TASK_STATUSES].map((status) => [status, taskEventTypeOf(kind, status) ?? null]),
      ),
    ]),
  ),
);

/**
 * A column of the patch when the transition gives it (a key present, null included), else the row's
 * own: TaskPatch leaves out what does not change, as Prisma's update did.
 */
const patched = (key: keyof TaskPatch, column: string, cast: string) =>
  `CASE WHEN i.patch ? '${key}' THEN (i.patch ->> '${key}')::${cast} ELSE t.${column} END`;

/**
 * The transitions of a batch in one statement, hence one transaction: the compare-and-swap of each
 * task's status (tasks locked in id order first, so that two batches sharing a task wait instead of
 * deadlocking) and the patch; for a terminal one also the drop of the request's inline inputs (nothing
 * sends them again) and the webhook event with one delivery per subscribed endpoint (the outbox, as
 * recordWebhookEvent writes it: EVENT_TYPES names no event for an open status). The tasks trigger
 * records each change in task_events. Returns the event id of each transition that won.
 */
const TRANSITION_TASKS = {
  name: 'tasks_transition_many',
  text: `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(id text, "from" text, "to" text, patch jsonb, "eventId" text)
), locked AS (
  SELECT t.id FROM tasks t WHERE t.id = ANY (ARRAY(SELECT id FROM input)) ORDER BY t.id FOR UPDATE
), ended AS (
  UPDATE tasks t
     SET status = i."to",
         channel_id = ${patched('channelId', 'channel_id', 'text')},
         progress = ${patched('progress', 'progress', 'int4')},
         upstream_handle = CASE WHEN i.patch ? 'upstreamHandle' THEN i.patch -> 'upstreamHandle' ELSE t.upstream_handle END,
         result_url = ${patched('resultUrl', 'result_url', 'text')},
         image_count = ${patched('imageCount', 'image_count', 'int4')},
         media_seconds = ${patched('mediaSeconds', 'media_seconds', 'int4')},
         input_tokens = ${patched('inputTokens', 'input_tokens', 'int4')},
         output_tokens = ${patched('outputTokens', 'output_tokens', 'int4')},
         failure_reason = ${patched('failureReason', 'failure_reason', 'text')},
         completed_at = CASE WHEN i.patch ? 'completedAt'
                             THEN (i.patch ->> 'completedAt')::timestamptz AT TIME ZONE 'UTC'
                             ELSE t.completed_at END,
         request = CASE WHEN i."to" = ANY ($3::text[]) THEN task_request_without_inline_inputs(t.request)
                        ELSE t.request END,
         updated_at = now() AT TIME ZONE 'UTC'
    FROM input i
   WHERE t.id IN (SELECT id FROM locked) AND t.id = i.id AND t.status = i."from"
  RETURNING t.id, t.kind, t.account_id, i."to" AS status, i."eventId" AS event_id
), typed AS (
  SELECT e.event_id, e.id AS subject_id, e.account_id, $2::jsonb -> e.kind ->> e.status AS type FROM ended e
), targets AS (
  SELECT y.event_id, w.id AS endpoint_id
    FROM typed y
    JOIN webhook_endpoints w
      ON w.status = 'enabled' AND y.type = ANY (w.events) AND (w.account_id IS NULL OR w.account_id = y.account_id)
), event AS (
  INSERT INTO webhook_events (id, type, account_id, subject_id, created_at)
  SELECT y.event_id, y.type, y.account_id, y.subject_id, now() AT TIME ZONE 'UTC'
    FROM typed y
   WHERE y.event_id IN (SELECT event_id FROM targets)
  RETURNING id
), delivery AS (
  INSERT INTO webhook_deliveries (id, event_id, endpoint_id, next_attempt_at, created_at, updated_at)
  SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), event.id, targets.endpoint_id,
         now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
    FROM event JOIN targets ON targets.event_id = event.id
)
SELECT event_id FROM ended`,
};

function isAloneAgainError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && ALONE_AGAIN_CLASSES.includes(code.slice(0, 2));
}

// perf-machinery: task-transition-batches (docs/performance-machinery.md)
/**
 * Writes status changes: those that arrive together (a burst of tasks completing upstream within
 * seconds of each other, or claimed for submission together) go in one statement and one commit, with
 * plain pg rather than, per ending, one Prisma interactive transaction of four round trips and a
 * statement more for the inline inputs. Each transition keeps its own compare-and-swap: of two
 * transitions of one task, in one batch or in two, one wins, and its event is the only one written.
 */
export class TaskTransitionWriter {
  private readonly batcher: StatementBatcher<TransitionItem, boolean>;

  constructor(private readonly pool: Pick<Pool, 'query'>) {
    this.batcher = new StatementBatcher((items) => this.writeBatch(items), BATCH_LIMITS);
  }

  /** Whether this transition won its compare-and-swap (and, when terminal, wrote its event). */
  write(transition: TaskTransition): Promise<boolean> {
    const { taskId, from, to, patch } = transition;
    return this.batcher.call({ id: taskId, from, to, patch, eventId: newWebhookEventId() });
  }

  private async writeBatch(items: TransitionItem[]): Promise<BatchOutcomes<boolean>> {
    try {
      return await this.writeTogether(items);
    } catch (error) {
      if (items.length === 1 || !isAloneAgainError(error)) throw error;
    }
    // One at a time: this runs only after a refused batch.
    const outcomes: BatchOutcomes<boolean> = [];
    for (const item of items) {
      try {
        const [outcome] = await this.writeTogether([item]);
        outcomes.push(outcome);
      } catch (error) {
        outcomes.push({ status: 'rejected', reason: error });
      }
    }
    return outcomes;
  }

  private async writeTogether(items: TransitionItem[]): Promise<BatchOutcomes<boolean>> {
    const { rows } = await this.pool.query<{ event_id: string }>({
      ...TRANSITION_TASKS,
      values: [JSON.stringify(items), EVENT_TYPES, TERMINAL_STATUSES],
    });
    const won = new Set(rows.map((row) => row.event_id));
    return items.map((item) => ({ status: 'fulfilled', value: won.has(item.eventId) }));
  }
}
