import { Prisma, type PrismaClient, type Task } from '@gateway/db';
import type { ByteStrings } from '@gateway/providers-core';
import { recordWebhookEvent, taskEventTypeOf } from '@gateway/webhooks/outbox';
import type { JsonHandle, JsonObject } from './json-value';
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

const OPEN_STATUSES = TASK_STATUSES.filter((status) => !TERMINAL_TASK_STATUSES.has(status));

const LISTING_ORDER = { asc: Prisma.sql`ASC`, desc: Prisma.sql`DESC` } as const;

/**
 * The only writer of `tasks`. Every status change is a compare-and-swap on the current status, so
 * that of two processes racing to the same terminal state exactly one wins and settles.
 */
export class TaskStore {
  private readonly rows: TaskRowWriter;

  /** `pool` writes new rows (see TaskRowWriter); Prisma everything else. */
  constructor(
    private readonly prisma: PrismaClient,
    pool: TaskRowPool,
  ) {
    this.rows = new TaskRowWriter(pool);
  }

  findById(taskId: string): Promise<Task | null> {
    return this.prisma.task.findUnique({ where: { id: taskId } });
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
   */
  async transition(
    taskId: string,
    from: TaskStatus,
    to: TaskStatus,
    patch: TaskPatch = {},
  ): Promise<boolean> {
    if (!canTransition(from, to)) throw new Error(`task status cannot change from ${from} to ${to}`);
    if (TERMINAL_TASK_STATUSES.has(to)) return this.finishWithEvent(taskId, from, to, patch);
    const { count } = await this.prisma.task.updateMany({
      where: { id: taskId, status: from },
      data: { ...patch, status: to },
    });
    return count === 1;
  }

  /**
   * A terminal transition and its webhook event (the outbox, libs/webhooks) in one transaction: the
   * event exists exactly when the transition won, so a crash after the commit loses no event and a
   * lost compare-and-swap writes none. Every writer of a task's end (the step, a batch poller, a
   * client's cancel, a query that steps a task) comes through here.
   */
  private async finishWithEvent(
    taskId: string,
    from: TaskStatus,
    to: TaskStatus,
    patch: TaskPatch,
  ): Promise<boolean> {
    const won = await this.prisma.$transaction(async (tx) => {
      const { count } = await tx.task.updateMany({
        where: { id: taskId, status: from },
        data: { ...patch, status: to },
      });
      if (count !== 1) return false;
      const task = await tx.task.findUnique({
        where: { id: taskId },
        select: { kind: true, accountId: true },
      });
      const type = task ? taskEventTypeOf(task.kind, to) : undefined;
      if (task && type) await recordWebhookEvent(tx, { type, accountId: task.accountId, subjectId: taskId });
      return true;
    });
    if (won) await this.dropInlineInputs(taskId);
    return won;
  }

  /**
   * Stores the upstream handle of a task still `processing`, and in the same statement replaces the
   * inline inputs of its request (images and clips sent as bytes) with markers of their length: from
   * the handle on the task is polled, never submitted again, so nothing reads them any more. The rule
   * is the database's own function (migration task_inline_inputs_dropped), so the bytes never travel
   * back to this process.
   */
  async storeHandle(taskId: string, handle: JsonHandle): Promise<boolean> {
    const count = await this.prisma.$executeRaw`
      UPDATE tasks
         SET upstream_handle = ${JSON.stringify(handle)}::jsonb,
             request = task_request_without_inline_inputs(request),
             updated_at = now() AT TIME ZONE 'UTC'
       WHERE id = ${taskId} AND status = 'processing'`;
    return count === 1;
  }

  /**
   * The same replacement once a task ended (nothing will send its inputs again), for a task that ends
   * without a handle: refused, cancelled or failed before any upstream took it. A separate statement
   * from the transition it follows: a crash between the two leaves the bytes to the retention sweep,
   * and a request without any is not written again.
   */
  private async dropInlineInputs(taskId: string): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE tasks SET request = task_request_without_inline_inputs(request)
       WHERE id = ${taskId} AND request IS DISTINCT FROM task_request_without_inline_inputs(request)`;
  }

  /** Writes columns without a status change, only while the task is still in `status`. */
  async updateWhile(taskId: string, status: TaskStatus, patch: TaskPatch): Promise<boolean> {
    const { count } = await this.prisma.task.updateMany({ where: { id: taskId, status }, data: patch });
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
