import type { LeasedHold, SettlementInput, SettlementLogInput } from '@gateway/billing';
import type { JobsOptions } from 'bullmq';

/** Payload of a `text-settlement` job: a SettlementInput made JSON-safe. */
export interface TextSettlementJob {
  requestId: string;
  /** Micros as a decimal string: JSON has no bigint. */
  captureMicros: string;
  log: SettlementLogInput;
  /** A leased hold's record, its amount a decimal string. */
  lease?: Omit<LeasedHold, 'amount'> & { amount: string };
}

export const TEXT_SETTLEMENT_JOB_NAME = 'settle';

const DECIMAL_MICROS = /^(0|[1-9]\d*)$/;

export function toSettlementJob(item: SettlementInput): TextSettlementJob {
  const job: TextSettlementJob = {
    requestId: item.requestId,
    captureMicros: item.captureMicros.toString(),
    log: item.log,
  };
  if (item.lease) job.lease = { ...item.lease, amount: item.lease.amount.toString() };
  return job;
}

/** Throws on a payload no producer of this code base writes; retrying such a job cannot help. */
export function fromSettlementJob(payload: TextSettlementJob): SettlementInput {
  if (typeof payload.requestId !== 'string' || payload.requestId === '') {
    throw new TypeError('text-settlement job without a request id');
  }
  if (typeof payload.captureMicros !== 'string' || !DECIMAL_MICROS.test(payload.captureMicros)) {
    throw new TypeError(`text-settlement job ${payload.requestId} has no decimal captureMicros`);
  }
  if (typeof payload.log !== 'object' || payload.log === null) {
    throw new TypeError(`text-settlement job ${payload.requestId} has no log`);
  }
  const settlement: SettlementInput = {
    requestId: payload.requestId,
    captureMicros: BigInt(payload.captureMicros),
    log: payload.log,
  };
  if (payload.lease !== undefined) {
    if (typeof payload.lease.amount !== 'string' || !DECIMAL_MICROS.test(payload.lease.amount)) {
      throw new TypeError(`text-settlement job ${payload.requestId} has a lease without decimal amount`);
    }
    settlement.lease = { ...payload.lease, amount: BigInt(payload.lease.amount) };
  }
  return settlement;
}

/**
 * One job per request: a duplicate enqueue is a no-op while the job is kept. (BullMQ refuses custom
 * ids with a colon, hence the dash and the encoding.)
 */
export function textSettlementJobId(requestId: string): string {
  return `settle-${encodeURIComponent(requestId)}`;
}

/**
 * Retried with backoff for about 8.5 minutes (a database restart, a failover) before the job is kept
 * as failed; the hold reaper settles the hold after its TTL if even that was not enough.
 */
export function textSettlementJobOptions(requestId: string): JobsOptions {
  return {
    jobId: textSettlementJobId(requestId),
    attempts: 10,
    backoff: { type: 'exponential', delay: 1_000 },
    removeOnComplete: { age: 3_600, count: 100_000 },
    removeOnFail: { age: 7 * 24 * 3_600 },
  };
}
