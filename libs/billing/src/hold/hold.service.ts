import type { Pool } from 'pg';
import { holdInputProblem, insufficientBalance, unknownAccountError } from './hold-input.util';
import type { TakeHoldInput, TakeRowHoldResult } from './hold.types';
import { takeHoldsStatement, takeOneHoldStatement } from './take-holds.statements';

interface TakeHoldRow {
  request_id: string;
  taken: boolean;
  available: string | null;
}

interface PendingHold {
  input: TakeHoldInput;
  resolve(result: TakeRowHoldResult): void;
  reject(error: unknown): void;
}

/** Most holds sent in one statement. */
const MAX_BATCH = 256;
/**
 * Statements in flight at once; holds arriving meanwhile wait and go together in the next one. One
 * (rather than two) made batches larger under load: Postgres CPU per request at 64 connections fell
 * about 15 % in the benchmark, with no change in throughput or latency.
 */
const MAX_IN_FLIGHT = 1;

/**
 * Reserves an upper bound of a request's cost before the upstream call. A hold goes to Postgres at once
 * when no statement is in flight (no added latency); under load, holds that arrive while one is in
 * flight are sent together, so one round trip and one commit serve many requests.
 */
export class HoldService {
  private waiting: PendingHold[] = [];
  private inFlight = 0;

  constructor(private readonly pool: Pool) {}

  /**
   * Takes the hold, or refuses it when the account cannot cover it. Request ids must be unique: a
   * second take for the same id fails (with the other holds of its batch) and changes nothing.
   */
  take(input: TakeHoldInput): Promise<TakeRowHoldResult> {
    const problem = holdInputProblem(input);
    if (problem) return Promise.reject(problem);
    return new Promise<TakeRowHoldResult>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      this.sendWaiting();
    });
  }

  private sendWaiting(): void {
    while (this.waiting.length > 0 && this.inFlight < MAX_IN_FLIGHT) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      this.inFlight += 1;
      void this.send(batch).finally(() => {
        this.inFlight -= 1;
        this.sendWaiting();
      });
    }
  }

  private async send(batch: PendingHold[]): Promise<void> {
    // One lock order for every batch (accounts by id), so concurrent batches cannot deadlock.
    const ordered = [...batch].sort((a, b) =>
      a.input.accountId < b.input.accountId ? -1 : a.input.accountId > b.input.accountId ? 1 : 0,
    );
    try {
      const { rows } = await this.pool.query<TakeHoldRow>(
        statementFor(ordered.map((pending) => pending.input)),
      );
      rows.forEach((row, index) => settleTake(ordered[index], row));
    } catch (error) {
      for (const pending of ordered) pending.reject(error);
    }
  }
}

/** A hold's values in statement order: request, account, key, model, route, amount, TTL (ms). */
function valuesOf(hold: TakeHoldInput): unknown[] {
  return [
    hold.requestId,
    hold.accountId,
    hold.keyId,
    hold.model,
    hold.route,
    hold.amount.toString(),
    hold.ttlMs,
  ];
}

function statementFor(holds: TakeHoldInput[]) {
  if (holds.length === 1) return { ...takeOneHoldStatement, values: valuesOf(holds[0]) };
  const rows = holds.map(valuesOf);
  // take_holds takes one array per column.
  return { ...takeHoldsStatement, values: rows[0].map((_, column) => rows.map((row) => row[column])) };
}

function settleTake(pending: PendingHold, row: TakeHoldRow | undefined): void {
  if (row?.taken) return pending.resolve({ ok: true });
  if (row?.available === null || row?.available === undefined) {
    return pending.reject(unknownAccountError(pending.input.accountId));
  }
  pending.resolve(insufficientBalance(BigInt(row.available)));
}
