import { randomBytes } from 'node:crypto';
import type { Task } from '@gateway/db';
import type { Pool } from 'pg';
import type { JsonObject } from './json-value';
import type { NewTask } from './task-store';

/** The part of a pg pool that writes a task row. */
export type TaskRowPool = Pick<Pool, 'query'>;

/** Strings of a request at least this long (`data:` images) are sent as parameters of their own. */
const LONG_STRING_CHARS = 64 * 1024;

/** Stands for a long string in the request's JSON text: no request can hold it (a random part). */
const PLACEHOLDER_PREFIX = `\u0000${randomBytes(12).toString('hex')}:`;

const FIRST_STRING_PARAMETER = 15;

// Timestamps are written as UTC ISO strings: a `timestamp(3)` column (Prisma's DateTime) ignores the
// zone, so it keeps the UTC wall time, as Prisma writes it.
const insertTask = (request: string) => `
  INSERT INTO tasks (id, kind, key_id, account_id, model, channel_id, status, progress, request,
                     hold_request_id, price_snapshot, idempotency_key, request_hash, remixed_from_id,
                     deadline_at, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, 'queued', 0, ${request}, $8, $9::jsonb, $10, $11, $12, $13, $14, $14)
  ON CONFLICT (key_id, idempotency_key) DO NOTHING`;

/**
 * The request as parameters: its JSON text with a placeholder for each long string, and the strings.
 * Serialising a request of 20 MB of images into one JSON text would hold them twice more in the
 * gateway (the text, then pg's write buffer); this way Postgres puts them in place.
 */
function requestParameters(request: JsonObject): { sql: string; values: string[] } {
  const plain = JSON.stringify(request);
  // A text shorter than a long string holds none: most requests, written as they are.
  if (plain.length < LONG_STRING_CHARS) return { sql: '$7::jsonb', values: [plain] };
  const strings: string[] = [];
  const text = JSON.stringify(request, (_key, value: unknown) => {
    if (typeof value !== 'string' || value.length < LONG_STRING_CHARS) return value;
    strings.push(value);
    return `${PLACEHOLDER_PREFIX}${strings.length - 1}`;
  });
  let sql = '$7::text';
  const values = [text];
  strings.forEach((value, index) => {
    const placeholder = FIRST_STRING_PARAMETER + 2 * index;
    sql = `replace(${sql}, $${placeholder}, to_jsonb($${placeholder + 1}::text)::text)`;
    values.push(JSON.stringify(`${PLACEHOLDER_PREFIX}${index}`), value);
  });
  return { sql: `${sql}::jsonb`, values };
}

/**
 * Writes a new task row with a plain INSERT rather than through Prisma: the request can hold megabytes
 * of `data:` images, and Prisma's query compiler copies every argument into its WebAssembly memory,
 * which never shrinks (a 20 MB alpha body grew the gateway by about 100 MiB for good; see "A 20 MB
 * body" in docs/performance-analysis.md), and its long strings go as parameters of their own
 * (requestParameters). Returns the row as written, or undefined when the key already has a task under
 * the idempotency key.
 */
export async function insertTaskRow(pool: TaskRowPool, row: NewTask, now: Date): Promise<Task | undefined> {
  const request = requestParameters(row.request);
  const [requestText, ...strings] = request.values;
  const { rowCount } = await pool.query(insertTask(request.sql), [
    row.id,
    row.kind,
    row.keyId,
    row.accountId,
    row.model,
    row.channelId ?? null,
    requestText,
    row.holdRequestId ?? null,
    row.priceSnapshot === undefined ? null : JSON.stringify(row.priceSnapshot),
    row.idempotencyKey ?? null,
    row.requestHash ?? null,
    row.remixedFromId ?? null,
    row.deadlineAt.toISOString(),
    now.toISOString(),
    ...strings,
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
