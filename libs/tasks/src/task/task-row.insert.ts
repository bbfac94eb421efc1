import type { Task } from '@gateway/db';
import type { Pool } from 'pg';
import type { NewTask } from './task-store';

/** The part of a pg pool that writes a task row. */
export type TaskRowPool = Pick<Pool, 'query'>;

// Timestamps are written as UTC ISO strings: a `timestamp(3)` column (Prisma's DateTime) ignores the
// zone, so it keeps the UTC wall time, as Prisma writes it.
const INSERT_TASK = `
  INSERT INTO tasks (id, kind, key_id, account_id, model, channel_id, status, progress, request,
                     hold_request_id, price_snapshot, idempotency_key, request_hash, remixed_from_id,
                     deadline_at, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, 'queued', 0, $7::jsonb, $8, $9::jsonb, $10, $11, $12, $13, $14, $14)
  ON CONFLICT (key_id, idempotency_key) DO NOTHING`;

/**
 * Writes a new task row with a plain INSERT rather than through Prisma: the request can hold megabytes
 * of `data:` images, and Prisma's query compiler copies every argument into its WebAssembly memory,
 * which never shrinks (a 20 MB alpha body grew the gateway by about 100 MiB for good; see "A 20 MB
 * body" in docs/performance-analysis.md). Returns the row as written, or undefined when the key
 * already has a task under the idempotency key.
 */
export async function insertTaskRow(pool: TaskRowPool, row: NewTask, now: Date): Promise<Task | undefined> {
  const { rowCount } = await pool.query(INSERT_TASK, [
    row.id,
    row.kind,
    row.keyId,
    row.accountId,
    row.model,
    row.channelId ?? null,
    JSON.stringify(row.request),
    row.holdRequestId ?? null,
    row.priceSnapshot === undefined ? null : JSON.stringify(row.priceSnapshot),
    row.idempotencyKey ?? null,
    row.requestHash ?? null,
    row.remixedFromId ?? null,
    row.deadlineAt.toISOString(),
    now.toISOString(),
  ]);
  if (rowCount === 0) return undefined;
  return {
    id: row.id,
    kind: row.kind,
    keyId: row.keyId,
    accountId: row.accountId,
    model: row.model,
    channelId: row.channelId ?? null,
    status: 'queued',
    progress: 0,
    request: row.request,
    upstreamHandle: null,
    holdRequestId: row.holdRequestId ?? null,
    priceSnapshot: row.priceSnapshot ?? null,
    resultUrl: null,
    imageCount: null,
    mediaSeconds: null,
    inputTokens: null,
    outputTokens: null,
    failureReason: null,
    idempotencyKey: row.idempotencyKey ?? null,
    requestHash: row.requestHash ?? null,
    remixedFromId: row.remixedFromId ?? null,
    deletedAt: null,
    deadlineAt: row.deadlineAt,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
  };
}
