import type { LeasedHold } from '../hold/hold.types';
import type { RequestLogInput, SettlementLogInput } from './request-log.types';

export interface SettlementInput {
  requestId: string;
  /**
   * The actual cost. It is captured as far as the account can pay it (down to minus its overdraft
   * limit); the rest is the request's overage, written on its log row and not captured.
   */
  captureMicros: bigint;
  log: SettlementLogInput;
  /**
   * Set when the hold was taken from a lease: the settlement captures from the lease; no hold row. Its
   * amount is what the lease reserved for the request when it ended (see HoldLeases.release).
   */
  lease?: LeasedHold;
}

/**
 * The settlement of a hold written as a row (HoldService.take): never a leased one. Whatever may only
 * hold a row (a task, whose hold must outlive the process that took it) settles through
 * SettlementService.settleRowHolds, which accepts nothing else.
 */
export type RowHoldSettlement = Omit<SettlementInput, 'lease'> & { lease?: never };

/** What one applied settlement could not capture because the account could not pay it. */
export interface SettlementOverage {
  requestId: string;
  micros: bigint;
}

export interface SettleManyResult {
  /** Request ids whose hold this call settled; the others were settled before (or never held). */
  appliedRequestIds: string[];
  /** The applied settlements that left part of their cost uncaptured, with that part. */
  overages: SettlementOverage[];
}

/** A log row Postgres refused on its own, after its batch failed: it is not stored. */
export interface RefusedLog {
  log: RequestLogInput;
  error: unknown;
}

export interface RecordLogsResult {
  /** Request ids logged by this call; a request logged before is not among them. */
  recordedRequestIds: string[];
  refused: RefusedLog[];
}
