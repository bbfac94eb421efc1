import type { Pool } from 'pg';

/** A delivery a worker holds until its lease ends, with what sending it takes. */
export interface ClaimedDelivery {
  id: string;
  /** Attempts already made in this round of the schedule. */
  attempts: number;
  /** The lease as written: the token that lets only this holder record the outcome. */
  lease: string;
  endpointId: string;
  url: string;
  secretCiphertext: string;
  secretKeyVersion: number;
  /** Set only while the rotated-out secret still signs (its grace period has not ended). */
  previousSecretCiphertext: string | null;
  previousSecretKeyVersion: number | null;
  eventId: string;
  eventType: string;
  subjectId: string;
  /** Milliseconds since the epoch (the column holds UTC without a zone, as every Prisma timestamp). */
  eventCreatedAtMs: number;
  payload: string | null;
}

export interface ClaimLimits {
  /** Deliveries this worker can take now. */
  capacity: number;
  /** Attempts in flight to one endpoint, across every worker. */
  perEndpoint: number;
  leaseMs: number;
}

/** How one attempt ended, as recorded. */
export interface AttemptOutcome {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

const NOW = `(now() AT TIME ZONE 'UTC')`;

/**
 * Claims the due deliveries of enabled endpoints, the earliest of each endpoint first, and at most
 * `perEndpoint` in flight per endpoint counting those other workers hold: an endpoint that never
 * answers holds that many slots, never the others'. FOR UPDATE SKIP LOCKED lets workers claim side
 * by side; the lease (leased_until) hands a delivery of a killed worker to the next claim.
 */
const CLAIM_SQL = `
  WITH inflight AS (
    SELECT endpoint_id, count(*)::int AS n FROM webhook_deliveries
     WHERE status = 'pending' AND leased_until > ${NOW}
     GROUP BY endpoint_id
  ), due AS (
    SELECT d.id, d.endpoint_id,
           row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) AS rank
      FROM webhook_deliveries d
      JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.status = 'enabled'
     WHERE d.status = 'pending' AND d.next_attempt_at <= ${NOW}
       AND (d.leased_until IS NULL OR d.leased_until <= ${NOW})
  ), picked AS (
    SELECT due.id FROM due LEFT JOIN inflight USING (endpoint_id)
     WHERE due.rank + coalesce(inflight.n, 0) <= $2::int
     ORDER BY due.rank, due.id
     LIMIT $1::int
  ), locked AS (
    SELECT d.id FROM webhook_deliveries d
     WHERE d.id IN (SELECT id FROM picked) AND d.status = 'pending'
       AND (d.leased_until IS NULL OR d.leased_until <= ${NOW})
     FOR UPDATE SKIP LOCKED
  )
  UPDATE webhook_deliveries d
     SET leased_until = ${NOW} + $3::float8 * interval '1 millisecond', updated_at = ${NOW}
    FROM locked, webhook_endpoints e, webhook_events ev
   WHERE d.id = locked.id AND e.id = d.endpoint_id AND ev.id = d.event_id
  RETURNING d.id, d.attempts, d.leased_until::text AS lease, e.id AS "endpointId", e.url,
            e.secret_ciphertext AS "secretCiphertext", e.secret_key_version AS "secretKeyVersion",
            CASE WHEN e.previous_secret_expires_at > ${NOW} THEN e.previous_secret_ciphertext END
              AS "previousSecretCiphertext",
            CASE WHEN e.previous_secret_expires_at > ${NOW} THEN e.previous_secret_key_version END
              AS "previousSecretKeyVersion",
            ev.id AS "eventId", ev.type AS "eventType", ev.subject_id AS "subjectId",
            (extract(epoch FROM ev.created_at) * 1000)::float8 AS "eventCreatedAtMs", ev.payload`;

/**
 * Records an attempt, and moves the delivery on only if this worker still holds its lease (one that
 * lost it to another worker, after a pause longer than the lease, leaves the outcome to that one).
 * $4 is the delivery's next state: 'delivered', 'failed', or 'pending' with $5 ms to the next attempt.
 */
const INSERT_ATTEMPT = `
    INSERT INTO webhook_attempts (delivery_id, status_code, latency_ms, error, created_at)
    VALUES ($1, $6::int, $7::int, $8::text, ${NOW})`;

const UPDATE_DELIVERY = `
  UPDATE webhook_deliveries
     SET status = $4::text, attempts = attempts + 1, leased_until = NULL, updated_at = ${NOW},
         next_attempt_at = CASE WHEN $4::text = 'pending' THEN ${NOW} + $5::float8 * interval '1 millisecond' ELSE next_attempt_at END,
         delivered_at = CASE WHEN $4::text = 'delivered' THEN ${NOW} ELSE delivered_at END
   WHERE id = $1 AND status = 'pending' AND leased_until = $2::timestamp AND attempts = $3::int`;

const RECORD_SQL = `WITH attempt AS (${INSERT_ATTEMPT}) ${UPDATE_DELIVERY}`;

/**
 * RECORD_SQL, and the delivery's endpoint disabled with reason $9, in one statement: all or nothing,
 * and only when the attempt was this worker's to record (its lease still held).
 */
const RECORD_GONE_SQL = `
  WITH attempt AS (${INSERT_ATTEMPT}), recorded AS (${UPDATE_DELIVERY} RETURNING endpoint_id)
  UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = $9::text, updated_at = ${NOW}
   WHERE id IN (SELECT endpoint_id FROM recorded) AND status = 'enabled'`;

/**
 * Deletes up to $2 ended deliveries last written more than $1 days ago, their attempts, and their events
 * once no other delivery of them is left. One statement: its deletes do not see each other, hence the
 * event's check leaves out the deliveries this same statement deletes.
 */
const SWEEP_SQL = `
  WITH ended AS (
    SELECT id, event_id FROM webhook_deliveries
     WHERE status IN ('delivered', 'failed') AND updated_at < ${NOW} - $1::int * interval '1 day'
     LIMIT $2::int
  ), attempts AS (
    DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM ended)
  ), deliveries AS (
    DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM ended) RETURNING id
  ), events AS (
    DELETE FROM webhook_events e
     WHERE e.id IN (SELECT event_id FROM ended)
       AND NOT EXISTS (
         SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.id NOT IN (SELECT id FROM ended)
       )
  )
  SELECT count(*)::int AS n FROM deliveries`;

/** The delivery worker's reads and writes of the outbox tables. */
export class WebhookDeliveryStore {
  constructor(private readonly pool: Pool) {}

  async claim(limits: ClaimLimits): Promise<ClaimedDelivery[]> {
    if (limits.capacity <= 0) return [];
    const { rows } = await this.pool.query<ClaimedDelivery>(CLAIM_SQL, [
      limits.capacity,
      limits.perEndpoint,
      limits.leaseMs,
    ]);
    return rows;
  }

  /** Keeps the first body rendered for the event (two workers may render it at once): returns that one. */
  async keepPayload(eventId: string, payload: string): Promise<string> {
    const { rows } = await this.pool.query<{ payload: string }>(
      'UPDATE webhook_events SET payload = coalesce(payload, $2) WHERE id = $1 RETURNING payload',
      [eventId, payload],
    );
    return rows[0]?.payload ?? payload;
  }

  /** Records the attempt; the delivery then ends (`delivered`, `failed`) or waits `retryInMs`. */
  async record(
    delivery: Pick<ClaimedDelivery, 'id' | 'lease' | 'attempts'>,
    next: { status: 'delivered' | 'failed' } | { status: 'pending'; retryInMs: number },
    outcome: AttemptOutcome,
  ): Promise<void> {
    await this.pool.query(RECORD_SQL, recordParams(delivery, next, outcome));
  }

  /**
   * The endpoint answered 410 Gone: the delivery fails and the endpoint is disabled (nothing more is
   * sent to it until an operator enables it again), in one statement, so that a worker killed between
   * the two cannot leave the endpoint enabled behind a failed delivery.
   */
  async recordGone(
    delivery: Pick<ClaimedDelivery, 'id' | 'lease' | 'attempts'>,
    outcome: AttemptOutcome,
    reason: string,
  ): Promise<void> {
    await this.pool.query(RECORD_GONE_SQL, [
      ...recordParams(delivery, { status: 'failed' }, outcome),
      reason,
    ]);
  }

  /** Lets a delivery go without an attempt, due again in `delayMs` (its event is not ready to render). */
  async postpone(delivery: Pick<ClaimedDelivery, 'id' | 'lease'>, delayMs: number): Promise<void> {
    await this.pool.query(
      `UPDATE webhook_deliveries
          SET leased_until = NULL, next_attempt_at = ${NOW} + $3::float8 * interval '1 millisecond', updated_at = ${NOW}
        WHERE id = $1 AND status = 'pending' AND leased_until = $2::timestamp`,
      [delivery.id, delivery.lease, delayMs],
    );
  }

  /** One batch of the retention sweep; returns how many deliveries it deleted. */
  async sweepEnded(retentionDays: number, limit: number): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(SWEEP_SQL, [retentionDays, limit]);
    return rows[0]?.n ?? 0;
  }
}

function recordParams(
  delivery: Pick<ClaimedDelivery, 'id' | 'lease' | 'attempts'>,
  next: { status: 'delivered' | 'failed' } | { status: 'pending'; retryInMs: number },
  outcome: AttemptOutcome,
): unknown[] {
  return [
    delivery.id,
    delivery.lease,
    delivery.attempts,
    next.status,
    next.status === 'pending' ? next.retryInMs : 0,
    outcome.statusCode,
    outcome.latencyMs,
    outcome.error,
  ];
}
