/** What one applied settlement tells the metrics: never ids, keys or payloads. */
export interface SettledUsage {
  /** The model billed; undefined when neither the log nor the lease named one. */
  model: string | undefined;
  inputTokens: number;
  outputTokens: number;
  /** What was captured: the cost less the overage the account could not pay. */
  capturedMicros: bigint;
  /** Time to the first byte sent to the client, for streams. */
  ttfbMs: number | undefined;
}

/**
 * Told about each settlement the database applied, once (a settlement replayed after a crash applies
 * nothing and is not told again). Implemented by the metrics (SettlementMetrics in libs/observability).
 */
export interface SettlementObserver {
  settled(usage: SettledUsage): void;
}
