import { UPSTREAM_ERROR_KINDS, type UpstreamFailure } from '@gateway/providers-core';

/**
 * The upstream failure a task row's failure reason records: the step processor writes an upstream's
 * failure as `<kind>: <message>`. Undefined for the gateway's own reasons (a deadline, a lost
 * submission, a channel removed).
 */
export function upstreamFailureOfReason(reason: string | null): UpstreamFailure | undefined {
  const separator = reason?.indexOf(': ') ?? -1;
  if (reason === null || separator <= 0) return undefined;
  const kind = UPSTREAM_ERROR_KINDS.find((known) => known === reason.slice(0, separator));
  // Stored failures are final: the task ended on them.
  return kind && { kind, message: reason.slice(separator + 2), retryable: false };
}
