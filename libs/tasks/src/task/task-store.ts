import { Prisma, type PrismaClient, type Task } from '@gateway/db';
import type { JsonHandle, JsonObject } from './json-value';
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
  holdRequestId?: string;
  priceSnapshot?: JsonObject;
  idempotencyKey?: string;
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
  failureReason?: string;
  completedAt?: Date;
}

export interface CreatedTask {
  task: Task;
  /** False when the key already had a task under this idempotency key: `task` is that one. */
  created: boolean;
}

const OPEN_STATUSES = TASK_STATUSES.filter((status) => !TERMINAL_TASK_STATUSES.has(status));

/** Unique-constraint violation, as Prisma reports it. */
const UNIQUE_VIOLATION = 'P2002';

/**
 * The only writer of `tasks`. Every status change is a compare-and-swap on the current status, so
 * that of two processes racing to the same terminal state exactly one wins and settles.
 */
export class TaskStore {
  constructor(private readonly prisma: PrismaClient) {}

  findById(taskId: string): Promise<Task | null> {
    return this.prisma.task.findUnique({ where: { id: taskId } });
  }

  /** Idempotent per (keyId, idempotencyKey): a repeated submission gets the first task back. */
  async create(row: NewTask): Promise<CreatedTask> {
    try {
      const task = await this.prisma.task.create({ data: { ...row, status: 'queued' } });
      return { task, created: true };
    } catch (error) {
      if (!isUniqueViolation(error) || row.idempotencyKey === undefined) throw error;
      const existing = await this.prisma.task.findFirst({
        where: { keyId: row.keyId, idempotencyKey: row.idempotencyKey },
      });
      if (!existing) throw error;
      return { task: existing, created: false };
    }
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
    const { count } = await this.prisma.task.updateMany({
      where: { id: taskId, status: from },
      data: { ...patch, status: to },
    });
    return count === 1;
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

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === UNIQUE_VIOLATION;
}
