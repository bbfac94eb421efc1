import { isChannelFault, UpstreamError, type UpstreamFailure } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import type { ChannelCandidate } from '../channel/channel-candidate';
import type { CircuitBreaker } from '../circuit/circuit-breaker';
import { orderCandidates } from '../selection/channel-selector';

export interface AttemptRecord {
  channelId: string;
  failure?: UpstreamFailure;
}

export interface FailoverResult<T> {
  value: T;
  candidate: ChannelCandidate;
  attempts: AttemptRecord[];
  /** How long the successful attempt took, for the caller to observe once the client has its answer. */
  durationMs: number;
}

/**
 * Told about every failed attempt, for metrics. The successful one is left to the caller (its
 * duration is in the result), so that recording it does not delay the client's answer.
 */
export type AttemptObserver = (
  candidate: ChannelCandidate,
  durationMs: number,
  failure?: UpstreamFailure,
) => void;

export interface FailoverPolicy {
  breaker: CircuitBreaker;
  maxAttempts: number;
  /**
   * False for a candidate this request cannot be sent to: it is passed over like an open circuit,
   * neither attempted nor counted. Asked only when the candidate's turn comes.
   */
  canServe?: (candidate: ChannelCandidate) => boolean;
  observe?: AttemptObserver;
}

export class FailoverExhaustedError extends GatewayError {
  constructor(
    error: GatewayError,
    readonly attempts: AttemptRecord[],
  ) {
    super(error.code, error.message, error.options);
  }
}

/**
 * Tries candidate channels in routing order until one answers. A failure that says something about
 * the channel (rate limit, overload, timeout, its credentials or balance) moves on to the next
 * candidate, never the same channel twice; a failure about the request itself ends the search.
 * `attempt` must only resolve once the client can be answered from it: failover is only possible
 * before the first byte reaches the client.
 */
export async function withChannelFailover<T>(
  candidates: readonly ChannelCandidate[],
  policy: FailoverPolicy,
  attempt: (candidate: ChannelCandidate) => Promise<T>,
): Promise<FailoverResult<T>> {
  const { breaker, maxAttempts, canServe = () => true, observe = () => undefined } = policy;
  const attempts: AttemptRecord[] = [];
  const now = Date.now();
  for (const candidate of orderCandidates(candidates)) {
    if (attempts.length >= maxAttempts) break;
    if (!canServe(candidate)) continue;
    const available = breaker.isAvailable(candidate.id, now);
    if (!(typeof available === 'boolean' ? available : await available)) continue;
    const startedAt = Date.now();
    try {
      const value = await attempt(candidate);
      attempts.push({ channelId: candidate.id });
      breaker.recordSuccess(candidate.id);
      return { value, candidate, attempts, durationMs: Date.now() - startedAt };
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      observe(candidate, Date.now() - startedAt, error.failure);
      attempts.push({ channelId: candidate.id, failure: error.failure });
      if (!isChannelFault(error.failure.kind)) {
        // The channel answered properly (the request itself was refused): it is healthy.
        breaker.recordSuccess(candidate.id);
        throw new FailoverExhaustedError(toClientError(error.failure), attempts);
      }
      void breaker.recordFailure(candidate.id, error.failure.kind);
    }
  }
  const last = attempts.at(-1)?.failure;
  if (!last) {
    throw new FailoverExhaustedError(
      new GatewayError(
        'service_unavailable',
        'Every channel serving this model is temporarily unavailable; retry later.',
      ),
      attempts,
    );
  }
  throw new FailoverExhaustedError(toClientError(last), attempts);
}

/** What the client sees of an upstream failure: the request's own problems, or a gateway-level outage. */
export function toClientError(failure: UpstreamFailure): GatewayError {
  switch (failure.kind) {
    case 'bad_request':
      return new GatewayError('upstream_bad_request', `The upstream refused the request: ${failure.message}`);
    case 'content_policy':
      return new GatewayError(
        'content_policy',
        `The request was blocked by the content policy: ${failure.message}`,
      );
    case 'rate_limit':
      return new GatewayError('rate_limited', 'The upstream is rate limiting this model; retry later.', {
        retryAfterMs: failure.retryAfterMs,
      });
    case 'timeout':
      return new GatewayError('upstream_timeout', 'The upstream did not answer in time.');
    case 'overload':
    case 'auth':
    case 'insufficient_balance':
      return new GatewayError(
        'upstream_unavailable',
        'No channel could serve the request right now; retry later.',
      );
  }
}
