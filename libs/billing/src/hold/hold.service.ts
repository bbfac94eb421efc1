import type { Pool } from 'pg';
import type { TakeHoldInput, TakeHoldResult } from './hold.types';

/**
 * One statement, so one round trip and one implicit transaction. The conditional UPDATE takes the
 * account's row lock, so concurrent holds on one account run one after another and each sees the held
 * amount of the previous one: they can never overspend. The hold row and its ledger row are written only
 * when the UPDATE matched. The final SELECT reads the statement's snapshot, which is all a refusal needs.
 */
const takeHoldStatement = {
  name: 'billing_take_hold',
  text: `
WITH reserved AS (
  UPDATE accounts
     SET held = held + $4::int8, updated_at = now() AT TIME ZONE 'UTC'
   WHERE id = $2::text AND balance - held + overdraft_limit >= $4::int8
  RETURNING id
), hold_row AS (
  INSERT INTO holds (request_id, account_id, key_id, model, route, amount, status, created_at, expires_at)
  SELECT $1::text, id, $3::text, $5::text, $6::text, $4::int8, 'open', now() AT TIME ZONE 'UTC',
         (now() AT TIME ZONE 'UTC') + $7::int8 * interval '1 millisecond'
    FROM reserved
), ledger_row AS (
  INSERT INTO ledger_entries (account_id, kind, amount, idempotency_key, request_id, created_at)
  SELECT id, 'hold', $4::int8, 'hold:' || $1::text, $1::text, now() AT TIME ZONE 'UTC'
    FROM reserved
)
SELECT EXISTS (SELECT 1 FROM reserved) AS taken,
       (SELECT balance - held + overdraft_limit FROM accounts WHERE id = $2::text)::text AS available`,
};

interface TakeHoldRow {
  taken: boolean;
  available: string | null;
}

/** Reserves an upper bound of a request's cost before the upstream call. */
export class HoldService {
  constructor(private readonly pool: Pool) {}

  /**
   * Takes the hold, or refuses it when the account cannot cover it. A second take for the same request
   * id fails with the database's unique violation and changes nothing: a request holds once.
   */
  async take(input: TakeHoldInput): Promise<TakeHoldResult> {
    if (input.amount < 0n) throw new RangeError(`hold amount must not be negative, got ${input.amount}`);
    if (!Number.isSafeInteger(input.ttlMs) || input.ttlMs <= 0) {
      throw new RangeError(`hold ttlMs must be a positive whole number, got ${input.ttlMs}`);
    }
    const { rows } = await this.pool.query<TakeHoldRow>({
      ...takeHoldStatement,
      values: [
        input.requestId,
        input.accountId,
        input.keyId,
        input.amount.toString(),
        input.model,
        input.route,
        input.ttlMs,
      ],
    });
    const [row] = rows;
    if (row?.available === null || row?.available === undefined) {
      throw new Error(`cannot hold for unknown account ${input.accountId}`);
    }
    if (row.taken) return { ok: true };
    return { ok: false, reason: 'insufficient_balance', availableMicros: BigInt(row.available) };
  }
}
