import { tracing, type TraceSpan } from '@gateway/observability';
import { UpstreamError } from '@gateway/providers-core';
import type { ChannelCandidate } from '@gateway/routing';

/**
 * The failure kind of an attempt that did not answer: the classified upstream kind, or the error's
 * class when the call failed without a classified answer (a cancelled request, a bug).
 */
function attemptFailureKind(error: unknown): string {
  if (error instanceof UpstreamError) return error.failure.kind;
  return error instanceof Error ? error.constructor.name : 'unknown';
}

function annotateFailure(span: TraceSpan | undefined, error: unknown): void {
  tracing.annotate(span, {
    'gateway.upstream.outcome': 'failed',
    'error.type': error instanceof Error ? error.constructor.name : typeof error,
    ...(error instanceof UpstreamError && error.failure.httpStatus !== undefined
      ? { 'gateway.upstream.status': error.failure.httpStatus }
      : {}),
  });
}

/**
 * `attempt` with a span around each channel it is tried on (ChannelAttempts), child of the request's
 * span: the channel's id and type, the model sent upstream, and how the attempt ended (answered, or
 * failed with its kind, error class and the upstream's HTTP status). Never the call, its context or
 * the answer: they hold the channel's credentials and the client's payload. A stream's attempt ends
 * at its first read, where failover stops being possible; the relay after it belongs to the request.
 * Used only when tracing is on: off, ChannelAttempts hands `attempt` over as it is.
 */
export function tracedAttempt<T>(
  attempt: (candidate: ChannelCandidate) => Promise<T>,
): (candidate: ChannelCandidate) => Promise<T> {
  return (candidate) =>
    tracing.inSpan(
      'upstream attempt',
      {
        'gateway.channel.id': candidate.id,
        'gateway.channel.type': candidate.type,
        'gateway.upstream.model': candidate.upstreamModel,
      },
      async (span) => {
        try {
          const value = await attempt(candidate);
          tracing.annotate(span, { 'gateway.upstream.outcome': 'answered' });
          return value;
        } catch (error) {
          annotateFailure(span, error);
          throw error;
        }
      },
      attemptFailureKind,
    );
}
