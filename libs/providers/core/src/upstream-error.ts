/**
 * Every upstream failure becomes exactly one of these kinds; callers branch on the kind only
 * (failover, circuit breaker, what the client sees).
 */
export const UPSTREAM_ERROR_KINDS = [
  'rate_limit',
  'overload',
  'auth',
  'bad_request',
  'content_policy',
  'insufficient_balance',
  'timeout',
] as const;

export type UpstreamErrorKind = (typeof UPSTREAM_ERROR_KINDS)[number];

export interface UpstreamFailure {
  kind: UpstreamErrorKind;
  /** Whether the same request may succeed on a retry (same or another channel). */
  retryable: boolean;
  /** Upstream-provided wait hint (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** HTTP status the upstream answered with; absent for transport failures. */
  httpStatus?: number;
  /** Upstream's own message, safe to show to the client for bad_request and content_policy. */
  message: string;
  /** Upstream machine-readable code or status string, for logs and metrics. */
  upstreamCode?: string;
}

/**
 * Maps an upstream error answer (a non-2xx status, its body as text and its headers) to one failure.
 * Every wire has one; callers branch on the kind only.
 */
export type UpstreamErrorClassifier = (
  status: number,
  body: string,
  headers: Record<string, string | string[] | undefined>,
) => UpstreamFailure;

/**
 * Kinds where another channel may serve the same request: the failure says something about the
 * channel (its quota, its health, its credentials), not about the request.
 */
const CHANNEL_FAULT_KINDS: ReadonlySet<UpstreamErrorKind> = new Set([
  'rate_limit',
  'overload',
  'timeout',
  'auth',
  'insufficient_balance',
]);

export function isChannelFault(kind: UpstreamErrorKind): boolean {
  return CHANNEL_FAULT_KINDS.has(kind);
}

/**
 * A task row's failure reason for an upstream's failure, `<kind>: <message>`: the one form the task
 * writers store, which upstreamFailureOfReason reads back.
 */
export function failureReasonOf(failure: Pick<UpstreamFailure, 'kind' | 'message'>): string {
  return `${failure.kind}: ${failure.message}`;
}

/**
 * The upstream failure a task row's failure reason records (failureReasonOf). Undefined for the
 * gateway's own reasons (a deadline, a lost submission, a channel removed).
 */
export function upstreamFailureOfReason(reason: string | null): UpstreamFailure | undefined {
  const separator = reason?.indexOf(': ') ?? -1;
  if (reason === null || separator <= 0) return undefined;
  const kind = UPSTREAM_ERROR_KINDS.find((known) => known === reason.slice(0, separator));
  // Stored failures are final: the task ended on them.
  return kind && { kind, message: reason.slice(separator + 2), retryable: false };
}

export class UpstreamError extends Error {
  constructor(readonly failure: UpstreamFailure) {
    super(failureReasonOf(failure));
    this.name = 'UpstreamError';
  }
}

/** Parses a Retry-After header (seconds or HTTP date) into milliseconds. */
export function retryAfterMsFrom(header: string | string[] | undefined, nowMs: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const dateMs = Date.parse(value);
  return Number.isNaN(dateMs) ? undefined : Math.max(0, dateMs - nowMs);
}
