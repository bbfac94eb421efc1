import { type BatchOutcomes, Prisma, StatementBatcher, type PrismaClient, type Task } from '@gateway/db';
import type { ByteStrings } from '@gateway/providers-core';
import type { JsonHandle, JsonObject } from './json-value';
import { NO_TASK_CHANGE_ANNOUNCEMENTS, type TaskChangeAnnouncer } from './task-change.publisher';
import { TaskHandleWriter } from './task-handle.writer';
import { TaskTransitionWriter } from './task-transition.writer';
import { type TaskRowPool, TaskRowWriter } from './task-row.writer';
import { canTransition, TERMINAL_TASK_STATUSES, TASK_STATUSES, type TaskStatus } from './task-status';

/** What the gateway knows when it creates a task; everything else starts at its default. */
export interface NewTask {
  id: string;
  kind: string;
  keyId: string;
  accountId: string;
  model: string;
  channelId?: string;
  request: JsonObject;
  /** Where the values that stand as tokens in `request` are read: a route that holds them as bytes. */
  byteStrings?: ByteStrings;
  holdRequestId?: string;
  priceSnapshot?: JsonObject;
  idempotencyKey?: string;
  /** SHA-256 (hex) of the normalised request, to tell a repeated Idempotency-Key with another body. */
  requestHash?: string;
  /** The finished task a remix was made from. */
  remixedFromId?: string;
  deadlineAt: Date;
}

/** Columns a worker may write together with a status change. */
export interface TaskPatch {
  /** The channel a submission moved to when the one it was created for failed over. */
  channelId?: string;
  progress?: number;
  upstreamHandle?: JsonHandle;
  resultUrl?: string | null;
  /** The images a completed task returned, stored with the terminal transition for its settlement. */
  imageCount?: number;
  /** The seconds of video or audio a completed task produced, stored likewise. */
  mediaSeconds?: number;
  /** The tokens a completed task's upstream reported, stored likewise. */
  inputTokens?: number;
  outputTokens?: number;
  failureReason?: string;
  completedAt?: Date;
}

/** One page of an account's tasks of one kind, by creation time (then id), after a cursor task. */
export interface OwnedTaskPage {
  accountId: string;
  kind: string;
  order: 'asc' | 'desc';
  limit: number;
  /** The id of the task the page starts after (the caller checked it is the account's). */
  after?: string;
}

/**
 * A task as a listing shows it: every column but the request's inputs (`images`, `clips`, `subjects`),
 * which may hold uploads as `data:` URIs of megabytes each.
 */
export type TaskListing = Omit<Task, 'request'> & { request: JsonObject };

export interface CreatedTask {
  task: Task;
  /** False when the key already had a task under this idempotency key: `task` is that one. */
  created: boolean;
}

/** Reads of findByIdAmongMany in one query, and queries in flight at once. */
const TOGETHER_READ_LIMITS = { maxBatch: 128, maxInFlight: 1 };

const OPEN_STATUSES = TASK_STATUSES.filter((status) => !TERMINAL_TASK_STATUSES.has(status));

const LISTING_ORDER = { asc: Prisma.sql`ASC`, desc: Prisma.sql`DESC` } as const;

/**
 * The only writer of `tasks`. Every status change is a compare-and-swap on the current status, so
 * that of two processes racing to the same terminal state exactly one wins and settles.
 */
export class TaskStore {
  private readonly rows: TaskRowWriter;
  private readonly transitions: TaskTransitionWriter;
  private readonly handles: TaskHandleWriter;
  private readonly togetherReads: StatementBatcher<string, Task | null>;

  /**
   * `pool` writes new rows (TaskRowWriter), status changes (TaskTransitionWriter) and handles
   * (TaskHandleWriter); Prisma everything else. `changes` is told of every committed change of a
   * task's status or progress (the progress streams' wake-up, docs/task-events.md); a new task is not
   * announced, since no stream can follow it before its creation is answered.
   */
  constructor(
    private readonly prisma: PrismaClient,
    pool: TaskRowPool,
    private readonly changes: TaskChangeAnnouncer = NO_TASK_CHANGE_ANNOUNCEMENTS,
  ) {
    this.rows = new TaskRowWriter(pool);
    this.transitions = new TaskTransitionWriter(pool);
    this.handles = new TaskHandleWriter(pool);
    this.togetherReads = new StatementBatcher((taskIds) => this.findMany(taskIds), TOGETHER_READ_LIMITS);
  }

  findById(taskId: string): Promise<Task | null> {
    return this.prisma.task.findUnique({ where: { id: taskId } });
  }

  // perf-machinery: task-read-batches (docs/performance-machinery.md)
  /**
   * findById for a path where many tasks are read at once (the step jobs of a burst of tasks ending
   * upstream together): the reads that arrive while one is in flight go in one query.
   */
  findByIdAmongMany(taskId: string): Promise<Task | null> {
    return this.togetherReads.call(taskId);
  }

  private async findMany(taskIds: string[]): Promise<BatchOutcomes<Task | null>> {
    const rows = await this.prisma.task.findMany({ where: { id: { in: [...new Set(taskIds)] } } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return taskIds.map((taskId) => ({ status: 'fulfilled', value: byId.get(taskId) ?? null }));
  }

  /** A task of the account, unless it is deleted: whoever else asks finds nothing. */
  findOwned(taskId: string, accountId: string): Promise<Task | null> {
    return this.prisma.task.findFirst({ where: { id: taskId, accountId, deletedAt: null } });
  }

  /** The account's tasks among `taskIds` that are not deleted, in no particular order; others are left out. */
  findOwnedMany(taskIds: readonly string[], accountId: string): Promise<Task[]> {
    return this.prisma.task.findMany({ where: { id: { in: [...taskIds] }, accountId, deletedAt: null } });
  }

  findByIdempotencyKey(keyId: string, idempotencyKey: string): Promise<Task | null> {
    return this.prisma.task.findFirst({ where: { keyId, idempotencyKey } });
  }

  /** A page of an account's tasks that are not deleted (index tasks(account_id, kind, created_at)). */
  listOwned(page: OwnedTaskPage): Promise<TaskListing[]> {
    const { accountId, kind, order, limit, after } = page;
    const direction = LISTING_ORDER[order];
    // The cursor's own row gives its position, so no timestamp travels as a parameter.
    const cursor = Prisma.sql`(SELECT created_at, id FROM tasks WHERE id = ${after ?? null})`;
    const beyond =
      after === undefined
        ? Prisma.empty
        : order === 'asc'
          ? Prisma.sql`AND (created_at, id) > ${cursor}`
          : Prisma.sql`AND (created_at, id) < ${cursor}`;
    return this.prisma.$queryRaw<TaskListing[]>`
      SELECT id, kind, key_id AS "keyId", account_id AS "accountId", model, channel_id AS "channelId", status,
             progress, request - 'images' - 'clips' - 'subjects' AS request, upstream_handle AS "upstreamHandle",
             hold_request_id AS "holdRequestId", price_snapshot AS "priceSnapshot", result_url AS "resultUrl",
             image_count AS "imageCount", media_seconds AS "mediaSeconds", input_tokens AS "inputTokens",
             output_tokens AS "outputTokens", failure_reason AS "failureReason",
             idempotency_key AS "idempotencyKey", request_hash AS "requestHash",
             remixed_from_id AS "remixedFromId", deleted_at AS "deletedAt", deadline_at AS "deadlineAt",
             created_at AS "createdAt", updated_at AS "updatedAt", completed_at AS "completedAt"
        FROM tasks
       WHERE account_id = ${accountId} AND kind = ${kind} AND deleted_at IS NULL ${beyond}
       ORDER BY created_at ${direction}, id ${direction}
       LIMIT ${limit}`;
  }

  /** Hides a finished task of the account from listings and lookups; false when there is none to hide. */
  async markDeleted(taskId: string, accountId: string): Promise<boolean> {
    const { count } = await this.prisma.task.updateMany({
      where: { id: taskId, accountId, deletedAt: null, status: { in: [...TERMINAL_TASK_STATUSES] } },
      data: { deletedAt: new Date() },
    });
    return count === 1;
  }

  /** Idempotent per (keyId, idempotencyKey): a repeated submission gets the first task back. */
  async create(row: NewTask): Promise<CreatedTask> {
    const task = await this.rows.insert(row, new Date());
    if (task) return { task, created: true };
    const existing =
      row.idempotencyKey === undefined
        ? null
        : await this.findByIdempotencyKey(row.keyId, row.idempotencyKey);
    if (!existing) throw new Error(`task ${row.id} was not written, and no task holds its idempotency key`);
    return { task: existing, created: false };
  }

  /**
   * Moves the task from `from` to `to` only if it is still in `from`. Returns whether this caller
   * made the change; a caller that lost must not settle, release or submit.
   *
   * A terminal transition writes its webhook event (the outbox, libs/webhooks) in the same statement:
   * the event exists exactly when the transition won, so a crash after the commit loses no event and a
   * lost compare-and-swap writes none. It also replaces the request's inline inputs with markers of
   * their length (nothing will send them again), as storeHandle does for a task the upstream took: a
   * task that ends without a handle (refused, cancelled or failed before any upstream took it) keeps no
   * bytes either. Every writer of a task's end (the step, a batch poller, a client's cancel, a query
   * that steps a task) comes through here; transitions that arrive together share a statement
   * (TaskTransitionWriter).
   */
  async transition(
    taskId: string,
    from: TaskStatus,
    to: TaskStatus,
    patch: TaskPatch = {},
  ): Promise<boolean> {
    if (!canTransition(from, to)) throw new Error(`task status cannot change from ${from} to ${to}`);
    const won = await this.transitions.write({ taskId, from, to, patch });
    if (won) this.changes.announce(taskId);
    return won;
  }

  /**
   * Stores the upstream handle of a task still `processing`, and in the same statement replaces the
   * inline inputs of its request (images and clips sent as bytes) with markers of their length: from
   * the handle on the task is polled, never submitted again, so nothing reads them any more. Handles
   * that arrive together share a statement (TaskHandleWriter).
   */
  storeHandle(taskId: string, handle: JsonHandle): Promise<boolean> {
    return this.handles.store(taskId, handle);
  }

  /** Writes columns without a status change, only while the task is still in `status`. */
  async updateWhile(taskId: string, status: TaskStatus, patch: TaskPatch): Promise<boolean> {
    const { count } = await this.prisma.task.updateMany({ where: { id: taskId, status }, data: patch });
    if (count === 1 && patch.progress !== undefined) this.changes.announce(taskId);
    return count === 1;
  }

  /**
   * Marks a `processing` task whose client's cancel is about to reach its upstream's wire, or clears
   * the mark when the wire refused: a worker whose poll then finds the upstream's record gone ends a
   * marked task cancelled (TaskStepProcessor.recordPoll). False when the task is no longer processing.
   */
  async markCancelSent(taskId: string, sent: boolean): Promise<boolean> {
    const { count } = await this.prisma.task.updateMany({
      where: { id: taskId, status: 'processing' },
      data: { cancelSentAt: sent ? new Date() : null },
    });
    return count === 1;
  }

  /**
   * Takes over a submission claimed at `claimedAt` once the upstream confirmed it created nothing:
   * renews the claim only if no other run renewed it or stored a handle first.
   */
  async reclaimSubmission(taskId: string, claimedAt: Date): Promise<boolean> {
    const { count } = await this.prisma.task.updateMany({
      where: {
        id: taskId,
        status: 'processing',
        upstreamHandle: { equals: Prisma.DbNull },
        updatedAt: claimedAt,
      },
      data: { updatedAt: new Date() },
    });
    return count === 1;
  }

  /**
   * Ids of open tasks of `kinds` not written since `before`, in id order after `afterId` (a page of a
   * sweep over them all): those whose step job may have been lost or never enqueued.
   */
  async findIdleOpenIds(
    before: Date,
    kinds: readonly string[],
    limit: number,
    afterId?: string,
  ): Promise<string[]> {
    const rows = await this.prisma.task.findMany({
      where: {
        status: { in: [...OPEN_STATUSES] },
        kind: { in: [...kinds] },
        updatedAt: { lt: before },
        ...(afterId === undefined ? {} : { id: { gt: afterId } }),
      },
      select: { id: true },
      orderBy: { id: 'asc' },
      take: limit,
    });
    return rows.map((row) => row.id);
  }

  /**
   * Ids of finished tasks of `kinds` not written since `before` whose hold is still open, in id order
   * after `afterId`: a worker died between the terminal transition and the settlement, and the task's
   * step job, which settles it on its next run, may be parked far ahead (a task polled in batches waits
   * for its deadline) or gone.
   */
  async findIdleUnsettledIds(
    before: Date,
    kinds: readonly string[],
    limit: number,
    afterId?: string,
  ): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<Array<{ id: string }>>`
      SELECT t.id FROM holds h JOIN tasks t ON t.hold_request_id = h.request_id
       WHERE h.status = 'open' AND t.status IN (${Prisma.join([...TERMINAL_TASK_STATUSES])})
         AND t.kind IN (${Prisma.join([...kinds])}) AND t.updated_at < (${before.toISOString()}::timestamptz AT TIME ZONE 'UTC')
         AND t.id > ${afterId ?? ''}
       ORDER BY t.id LIMIT ${limit}`;
    return rows.map((row) => row.id);
  }

  /** Open tasks past their deadline, oldest deadline first. */
  findOverdue(now: Date, limit: number, kinds?: readonly string[]): Promise<Task[]> {
    return this.prisma.task.findMany({
      where: {
        status: { in: [...OPEN_STATUSES] },
        deadlineAt: { lt: now },
        ...(kinds ? { kind: { in: [...kinds] } } : {}),
      },
      orderBy: { deadlineAt: 'asc' },
      take: limit,
    });
  }
}
