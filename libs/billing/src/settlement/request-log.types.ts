/** One request's log row. Never payloads. */
export interface RequestLogInput {
  requestId: string;
  keyId?: string;
  accountId?: string;
  model?: string;
  channelId?: string;
  route: string;
  httpStatus: number;
  /** completed | client_error | upstream_error | client_disconnect | insufficient_balance | abandoned … */
  endReason: string;
  latencyMs: number;
  /** Time to the first byte sent to the client, for streams. */
  ttfbMs?: number;
  inputTokens: number;
  outputTokens: number;
  /** Images returned (image requests and tasks); absent means 0. */
  imageCount?: number;
  /** Seconds of video or audio produced, rounded up as billed; absent means 0. */
  mediaSeconds?: number;
  costMicros: bigint;
  attempts: number;
}

/**
 * The log written by a settlement. Its request id and cost are the settlement's own; key, account and
 * model default to the hold's.
 */
export type SettlementLogInput = Omit<RequestLogInput, 'requestId' | 'costMicros'>;
