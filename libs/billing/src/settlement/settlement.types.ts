import type { LeasedHold } from '../hold/hold.types';
import type { SettlementLogInput } from './request-log.types';

export interface SettlementInput {
  requestId: string;
  /** The actual cost, captured in full even when it exceeds the hold. */
  captureMicros: bigint;
  log: SettlementLogInput;
  /** Set when the hold was taken from a lease: the settlement captures from the lease; no hold row. */
  lease?: LeasedHold;
}

export interface SettleManyResult {
  /** Request ids whose hold this call settled; the others were settled before (or never held). */
  appliedRequestIds: string[];
}
