import { Inject, Injectable } from '@nestjs/common';
import { SeriesCache, type GatewayMetrics } from '@gateway/observability';
import { METRICS } from '../platform/infrastructure/tokens';
import type { AttemptObserver } from '@gateway/routing';

/** Upstream call durations and failures by channel, whatever the modality. */
@Injectable()
export class AttemptMetrics {
  private readonly upstreamDuration = new SeriesCache<{ observe(seconds: number): void }>();

  constructor(@Inject(METRICS) private readonly metrics: GatewayMetrics) {}

  /** Records one attempt; a bound function, so the failover policy can hold it without a closure per request. */
  readonly observe: AttemptObserver = (candidate, durationMs, failure) => {
    this.upstreamDuration
      .get(candidate.name, () => this.metrics.upstreamDuration.labels({ channel: candidate.name }))
      .observe(durationMs / 1000);
    if (failure) this.metrics.upstreamErrors.inc({ channel: candidate.name, kind: failure.kind });
  };
}
