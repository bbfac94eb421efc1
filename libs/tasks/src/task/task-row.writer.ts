import { randomBytes } from 'node:crypto';
import { type BatchOutcomes, StatementBatcher } from '@gateway/db';
import type { Task } from '@gateway/db';
import type { Pool } from 'pg';
import type { JsonObject } from './json-value';
import type { NewTask } from './task-store';

/** The part of a pg pool that writes task rows. */
export type TaskRowPool = Pick<Pool, 'query'>;

/** Strings of a request at least this long (`data:` images) are sent as parameters of their own. */
const LONG_STRING_CHARS = 64 * 1024;

/** Stands for a long string in the request's JSON text: no request can hold it (a random part). */
const PLACEHOLDER_PREFIX = `\u0000${randomBytes(12).toString('hex')}:`;

/** Most rows in one statement, and statements in flight at once (as for holds: HoldService). */
const BATCH_LIMITS = { maxBatch: 128, maxInFlight: 1 };

/**
 * SQLSTATE classes of errors that one row can cause (data exceptions, integrity violations): a batch
 * that fails with one is written again row by row, so that the row fails alone.
 */
const ROW_ERROR_CLASSES = ['22', '23'];

const COLUMNS = `id, kind, key_id, account_id, model, channel_id, status, progress, request, hold_request_id,
                 price_snapshot, idempotency_key, request_hash, remixed_from_id, deadline_at, created_at,
                 updated_at`;
const FIRST_STRING_PARAMETER = 15;

// Timestamps are written as UTC ISO strings: a `timestamp(3)` column (Prisma's DateTime) ignores the
// zone, so it keeps the UTC wall time, as Prisma writes it.
const insertOne = (request: string) => `
  INSERT INTO tasks (${COLUMNS})
  VALUES ($1, $2, $3, $4, $5, $6, 'queued', 0, ${request}, $8, $9::jsonb, $10, $11, $12, $13, $14, $14)
  ON CONFLICT (key_id, idempotency_key) DO NOTHING`;

/** Many rows: one array per column (in insertOne's parameter order), the ids of the rows written back. */
const insertMany = {
  name: 'tasks_insert_many',
  text: `
  INSERT INTO tasks (${COLUMNS})
  SELECT id, kind, key_id, account_id, model, channel_id, 'queued', 0, request::jsonb, hold_request_id,
         price_snapshot::jsonb, idempotency_key, request_hash, remixed_from_id, deadline_at, created_at,
         created_at
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::timestamp[],
                $14::timestamp[])
         AS row (id, kind, key_id, account_id, model, channel_id, request, hold_request_id, price_snapshot,
                 idempotency_key, request_hash, remixed_from_id, deadline_at, created_at)
  ON CONFLICT (key_id, idempotency_key) DO NOTHING
  RETURNING id`,
};

/** A row to write: its columns in insertOne's parameter order, the id first. */
type RowValues = [id: string, ...columns: unknown[]];

/**
 * The request as parameters: its JSON text with a placeholder for each long string, and the strings.
 * Serialising a request of 20 MB of images into one JSON text would hold them twice more in the
 * gateway (the text, then pg's write buffer); this way Postgres puts them in place.
 */
function requestParameters(request: JsonObject): { sql: string; text: string; strings: string[] } {
  const plain = JSON.stringify(request);
  // A text shorter than a long string holds none: most requests, written as they are.
  if (plain.length < LONG_STRING_CHARS) return { sql: '$7::jsonb', text: plain, strings: [] };
  const strings: string[] = [];
  const text = JSON.stringify(request, (_key, value: unknown) => {
    if (typeof value !== 'string' || value.length < LONG_STRING_CHARS) return value;
    strings.push(value);
    return `${PLACEHOLDER_PREFIX}${strings.length - 1}`;
  });
  let sql = '$7::text';
  const placeholders: string[] = [];
  strings.forEach((value, index) => {
    const placeholder = FIRST_STRING_PARAMETER + 2 * index;
    sql = `replace(${sql}, $${placeholder}, to_jsonb($${placeholder + 1}::text)::text)`;
    placeholders.push(JSON.stringify(`${PLACEHOLDER_PREFIX}${index}`), value);
  });
  return { sql: `${sql}::jsonb`, text, strings: placeholders };
}

function valuesOf(row: NewTask, requestText: string, now: Date): RowValues {
  return [
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
  ];
}

function isRowError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && ROW_ERROR_CLASSES.includes(code.slice(0, 2));
}

/**
 * Writes new task rows with plain INSERTs rather than through Prisma: a request can hold megabytes of
 * `data:` images, and Prisma's query compiler copies every argument into its WebAssembly memory, which
 * never shrinks (a 20 MB alpha body grew the gateway by about 100 MiB for good; see "A 20 MB body" in
 * docs/performance-analysis.md). A request that carries long strings is written alone, its strings as
 * parameters of their own (requestParameters); the others go together when they arrive together
 * (StatementBatcher), so that under load one statement and one commit write many rows.
 */
export class TaskRowWriter {
  private readonly batcher: StatementBatcher<RowValues, boolean>;

  constructor(private readonly pool: TaskRowPool) {
    this.batcher = new StatementBatcher((rows) => this.insertBatch(rows), BATCH_LIMITS);
  }

  /** The row as written, or undefined when the key already has a task under the idempotency key. */
  async insert(row: NewTask, now: Date): Promise<Task | undefined> {
    const request = requestParameters(row.request);
    const values = valuesOf(row, request.text, now);
    const written =
      request.strings.length === 0
        ? await this.batcher.call(values)
        : await this.insertAlone(request.sql, [...values, ...request.strings]);
    return written ? taskOf(row, now) : undefined;
  }

  private async insertAlone(requestSql: string, values: unknown[]): Promise<boolean> {
    const { rowCount } = await this.pool.query(insertOne(requestSql), values);
    return rowCount === 1;
  }

  private async insertBatch(rows: RowValues[]): Promise<BatchOutcomes<boolean>> {
    const alone = () => Promise.allSettled(rows.map((values) => this.insertAlone('$7::jsonb', values)));
    if (rows.length === 1) return alone();
    try {
      const columns = rows[0].map((_, column) => rows.map((values) => values[column]));
      const { rows: written } = await this.pool.query<{ id: string }>({ ...insertMany, values: columns });
      const writtenIds = new Set(written.map(({ id }) => id));
      return rows.map(([id]) => ({ status: 'fulfilled', value: writtenIds.has(id) }));
    } catch (error) {
      if (isRowError(error)) return alone();
      throw error;
    }
  }
}

function taskOf(row: NewTask, now: Date): Task {
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
