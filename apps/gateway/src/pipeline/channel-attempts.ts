import { Inject, Injectable } from '@nestjs/common';
import type { GatewayConfig } from '@gateway/config';
import { tracing } from '@gateway/observability';
import { CircuitBreaker, type ChannelCandidate } from '@gateway/routing';
import { AttemptMetrics } from './attempt-metrics';
import { withChannelFailover, type FailoverResult } from '@gateway/routing';
import { CONFIG } from '../platform/infrastructure/tokens';
import { tracedAttempt } from './traced-attempt';

/**
 * The pipeline's failover across channels, with the gateway's breaker, attempt limit and metrics:
 * a route hands over its candidates and one attempt, and gets the first channel's answer.
 */
@Injectable()
export class ChannelAttempts {
  private readonly maxAttempts: number;

  constructor(
    private readonly breaker: CircuitBreaker,
    private readonly metrics: AttemptMetrics,
    @Inject(CONFIG) config: GatewayConfig,
  ) {
    this.maxAttempts = config.maxAttempts;
  }

  /**
   * `canServe` passes over a candidate this request cannot be sent to (see FailoverPolicy). With
   * tracing on, each attempt is a span of the request's trace; off, `attempt` runs as it is given.
   */
  run<T>(
    candidates: readonly ChannelCandidate[],
    attempt: (candidate: ChannelCandidate) => Promise<T>,
    canServe?: (candidate: ChannelCandidate) => boolean,
  ): Promise<FailoverResult<T>> {
    return withChannelFailover(
      candidates,
      { breaker: this.breaker, maxAttempts: this.maxAttempts, canServe, observe: this.metrics.observe },
      tracing.enabled ? tracedAttempt(attempt) : attempt,
    );
  }
}
