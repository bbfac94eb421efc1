import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type BatchOutcomes, StatementBatcher } from '@gateway/db/statement-batcher';
import type { Task } from '@gateway/db';
import type { ByteStrings } from '@gateway/providers-core';
import type { Pool } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { JsonObject } from './json-value';
import type { NewTask } from './task-store';

/** The part of a pg pool that writes task rows: statements, and a connection of its own for a COPY. */
export type TaskRowPool = Pick<Pool, 'query' | 'connect'>;

/** Strings of a request at least this long (`data:` images) are written through COPY (requestPieces). */
const LONG_STRING_CHARS = 64 * 1024;

/** Stands for a long string in the request's JSON text: no request can hold it (a random part). */
const PLACEHOLDER_PREFIX = `long:${randomBytes(12).toString('hex')}:`;
const PLACEHOLDER_LITERAL = new RegExp(`"${PLACEHOLDER_PREFIX}(\\d+)"`, 'g');

/** Most rows in one statement, and statements in flight at once (as for holds: HoldService). */
const BATCH_LIMITS = { maxBatch: 128, maxInFlight: 1 };

/**
 * SQLSTATE classes of errors that one row can cause (data exceptions, integrity violations): a batch
 * that fails with one is written again row by row, so that the row fails alone.
 */
const ROW_ERROR_CLASSES = ['22', '23'];

const COLUMNS = `id, kind, key_id, account_id, model, channel_id, status, progress, hold_request_id,
                 price_snapshot, idempotency_key, request_hash, remixed_from_id, deadline_at, created_at,
                 updated_at, request`;

// Timestamps are written as UTC ISO strings: a `timestamp(3)` column (Prisma's DateTime) ignores the
// zone, so it keeps the UTC wall time, as Prisma writes it.
const INSERT_ONE = `
  INSERT INTO tasks (${COLUMNS})
  VALUES ($1, $2, $3, $4, $5, $6, 'queued', 0, $7, $8::jsonb, $9, $10, $11, $12, $13, $13, $14::jsonb)
  ON CONFLICT (key_id, idempotency_key) DO NOTHING`;

/** Many rows: one array per column (in INSERT_ONE's parameter order), the ids of the rows written back. */
const INSERT_MANY = {
  name: 'tasks_insert_many',
  text: `
  INSERT INTO tasks (${COLUMNS})
  SELECT id, kind, key_id, account_id, model, channel_id, 'queued', 0, hold_request_id,
         price_snapshot::jsonb, idempotency_key, request_hash, remixed_from_id, deadline_at, created_at,
         created_at, request::jsonb
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                $8::text[], $9::text[], $10::text[], $11::text[], $12::timestamp[], $13::timestamp[],
                $14::text[])
         AS row (id, kind, key_id, account_id, model, channel_id, hold_request_id, price_snapshot,
                 idempotency_key, request_hash, remixed_from_id, deadline_at, created_at, request)
  ON CONFLICT (key_id, idempotency_key) DO NOTHING
  RETURNING id`,
};

/** Where a request with long strings is copied to, in the transaction that writes its row. */
const COPY_TABLE = 'task_request_copies';
const CREATE_COPY_TABLE = `CREATE TEMP TABLE IF NOT EXISTS ${COPY_TABLE} (request text) ON COMMIT DELETE ROWS`;
const COPY_REQUEST = `COPY ${COPY_TABLE} (request) FROM STDIN`;
/** INSERT_ONE with the request read from the copy: the other columns are its first 13 parameters. */
const INSERT_COPIED = `
  INSERT INTO tasks (${COLUMNS})
  SELECT $1, $2, $3, $4, $5, $6, 'queued', 0, $7, $8::jsonb, $9, $10, $11, $12, $13, $13, request::jsonb
    FROM ${COPY_TABLE}
  ON CONFLICT (key_id, idempotency_key) DO NOTHING`;

/** A row to write: its columns in INSERT_ONE's parameter order, the id first and the request last. */
type RowValues = [id: string, ...columns: unknown[]];

function valuesOf(row: NewTask, requestText: string, now: Date): RowValues {
  return [
    row.id,
    row.kind,
    row.keyId,
    row.accountId,
    row.model,
    row.channelId ?? null,
    row.holdRequestId ?? null,
    row.priceSnapshot === undefined ? null : JSON.stringify(row.priceSnapshot),
    row.idempotencyKey ?? null,
    row.requestHash ?? null,
    row.remixedFromId ?? null,
    row.deadlineAt.toISOString(),
    now.toISOString(),
    requestText,
  ];
}

/**
 * The request's JSON text and its long strings, the text carrying a placeholder for each, so that it is
 * never one string of megabytes; most requests hold none.
 */
function requestTextOf(request: JsonObject): { text: string; strings: string[] } {
  const plain = JSON.stringify(request);
  // A text shorter than a long string holds none: most requests, written as they are.
  if (plain.length < LONG_STRING_CHARS) return { text: plain, strings: [] };
  const strings: string[] = [];
  const text = JSON.stringify(request, (_key, value: unknown) => {
    if (typeof value !== 'string' || value.length < LONG_STRING_CHARS) return value;
    strings.push(value);
    return `${PLACEHOLDER_PREFIX}${strings.length - 1}`;
  });
  return { text, strings };
}

// perf-machinery: task-row-copy (docs/performance-machinery.md)
/**
 * The request's JSON text in COPY's text format, in pieces: each long string's JSON text made a slice
 * of LONG_STRING_CHARS at a time, each value held as bytes (`byteStrings`) written from the client's
 * own bytes. No piece holds a long value whole, and the pieces go to the socket as they are made, so
 * that neither this process nor pg's write buffer ever holds a 20 MB request once more
 * (docs/performance-analysis.md, "A 20 MB body").
 */
function* requestPieces(
  text: string,
  strings: readonly string[],
  byteStrings: ByteStrings | undefined,
): Generator<Buffer> {
  let copied = 0;
  for (const match of text.matchAll(PLACEHOLDER_LITERAL)) {
    yield* textPieces(text.slice(copied, match.index), byteStrings);
    yield* stringPieces(strings[Number(match[1])]);
    copied = match.index + match[0].length;
  }
  yield* textPieces(text.slice(copied), byteStrings);
}

/** JSON text in COPY's text format, held values written from their bytes (which need no escape). */
function* textPieces(text: string, byteStrings: ByteStrings | undefined): Generator<Buffer> {
  for (const piece of byteStrings ? byteStrings.piecesOf(text) : [text]) {
    yield typeof piece === 'string' ? Buffer.from(copyEscaped(piece)) : piece;
  }
}

/**
 * A long string's JSON literal a slice at a time. A slice that cuts a surrogate pair in two ends and
 * starts with `\uXXXX` escapes, which Postgres reads back as the pair.
 */
function* stringPieces(value: string): Generator<Buffer> {
  yield Buffer.from('"');
  for (let start = 0; start < value.length; start += LONG_STRING_CHARS) {
    const literal = JSON.stringify(value.slice(start, start + LONG_STRING_CHARS));
    yield Buffer.from(copyEscaped(literal.slice(1, -1)));
  }
  yield Buffer.from('"');
}

/** COPY's text format: a backslash is an escape. JSON text has no raw tab, newline or carriage return. */
function copyEscaped(text: string): string {
  return text.replaceAll('\\', '\\\\');
}

function isRowError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && ROW_ERROR_CLASSES.includes(code.slice(0, 2));
}

// perf-machinery: task-row-batches (docs/performance-machinery.md)
/**
 * Writes new task rows with plain INSERTs rather than through Prisma: a request can hold megabytes of
 * `data:` images, and Prisma's query compiler copies every argument into its WebAssembly memory, which
 * never shrinks (a 20 MB alpha body grew the gateway by about 100 MiB for good; see "A 20 MB body" in
 * docs/performance-analysis.md). A request that carries long strings is written alone, its JSON text
 * copied in pieces (requestPieces) in the transaction that inserts its row; the others go together
 * when they arrive together (StatementBatcher), so that under load one statement and one commit write
 * many rows.
 */
export class TaskRowWriter {
  private readonly batcher: StatementBatcher<RowValues, boolean>;

  constructor(private readonly pool: TaskRowPool) {
    this.batcher = new StatementBatcher((rows) => this.insertBatch(rows), BATCH_LIMITS);
  }

  /**
   * The row as written, or undefined when the key already has a task under the idempotency key. Its
   * request is the one given, tokens of `byteStrings` included: the row holds the values.
   */
  async insert(row: NewTask, now: Date): Promise<Task | undefined> {
    const { text, strings } = requestTextOf(row.request);
    const values = valuesOf(row, text, now);
    const written =
      strings.length === 0 && !row.byteStrings?.size
        ? await this.batcher.call(values)
        : await this.insertCopied(values.slice(0, -1), requestPieces(text, strings, row.byteStrings));
    return written ? taskOf(row, now) : undefined;
  }

  private async insertAlone(values: RowValues): Promise<boolean> {
    const { rowCount } = await this.pool.query(INSERT_ONE, values);
    return rowCount === 1;
  }

  /** One row whose request is copied in `pieces`: COPY, then INSERT from the copy, in one transaction. */
  private async insertCopied(columns: unknown[], pieces: Iterable<Buffer>): Promise<boolean> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      await client.query(CREATE_COPY_TABLE);
      await pipeline(Readable.from(pieces), client.query(copyFrom(COPY_REQUEST)));
      const { rowCount } = await client.query(INSERT_COPIED, columns);
      await client.query('COMMIT');
      return rowCount === 1;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        // A connection that cannot even roll back is closed rather than handed to the next caller.
        broken = rollbackError as Error;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  private async insertBatch(rows: RowValues[]): Promise<BatchOutcomes<boolean>> {
    const alone = () => Promise.allSettled(rows.map((values) => this.insertAlone(values)));
    if (rows.length === 1) return alone();
    try {
      const columns = rows[0].map((_, column) => rows.map((values) => values[column]));
      const { rows: written } = await this.pool.query<{ id: string }>({ ...INSERT_MANY, values: columns });
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
    costMicros: null,
    idempotencyKey: row.idempotencyKey ?? null,
    requestHash: row.requestHash ?? null,
    remixedFromId: row.remixedFromId ?? null,
    deletedAt: null,
    cancelSentAt: null,
    requestClearedAt: null,
    deadlineAt: row.deadlineAt,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
  };
}
