import type { ResolvedKey } from '@gateway/auth';
import type { RequestLogInput, SettlementLogInput } from '@gateway/billing';
import type { TokenUsage } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';

/** How a generation ended, for its log row; each modality's outcome extends it with its usage. */
export interface GenerationOutcome {
  httpStatus: number;
  endReason: string;
  channelId?: string;
  attempts: number;
  /** Time to the first byte sent to the client, for streams. */
  ttfbMs?: number;
}

/**
 * The log fields of a settled generation; the settlement adds the request id and the cost it
 * captured. Positional, so the text path builds no object for the call.
 */
export function settlementLogOf(
  key: ResolvedKey,
  model: string,
  route: string,
  startedAt: number,
  outcome: GenerationOutcome,
  tokens: TokenUsage | undefined,
  imageCount?: number,
): SettlementLogInput {
  return {
    keyId: key.id,
    accountId: key.accountId,
    model,
    channelId: outcome.channelId,
    route,
    httpStatus: outcome.httpStatus,
    endReason: outcome.endReason,
    latencyMs: Date.now() - startedAt,
    ttfbMs: outcome.ttfbMs,
    inputTokens: tokens?.inputTokens ?? 0,
    outputTokens: tokens?.outputTokens ?? 0,
    imageCount,
    attempts: outcome.attempts,
  };
}

/** Refusals whose log row names their own reason: the balance, and governance (docs/governance.md). */
const REASONED_REFUSALS: ReadonlySet<string> = new Set([
  'insufficient_balance',
  'rate_limit_exceeded',
  'budget_exceeded',
  'ip_not_allowed',
]);

/** The log row of a generation refused before (or while) its hold was taken: nothing was charged. */
export function refusalLogOf(
  requestId: string,
  key: ResolvedKey,
  model: string | undefined,
  route: string,
  startedAt: number,
  error: unknown,
): RequestLogInput {
  const refusal = error instanceof GatewayError ? error : undefined;
  return {
    requestId,
    keyId: key.id,
    accountId: key.accountId,
    model,
    route,
    httpStatus: refusal?.httpStatus ?? 500,
    endReason: refusal && REASONED_REFUSALS.has(refusal.code) ? refusal.code : 'refused',
    latencyMs: Date.now() - startedAt,
    inputTokens: 0,
    outputTokens: 0,
    costMicros: 0n,
    attempts: 0,
  };
}
