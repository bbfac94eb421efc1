import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { SeriesCache, type GatewayMetrics } from '@gateway/observability';
import { METRICS } from '../infrastructure/tokens';

interface SeriesOfResponse {
  count: { inc(): void };
  duration: { observe(seconds: number): void };
}

/** Request counts and latency by route pattern (never the raw URL: ids and keys would explode the series). */
@Injectable()
export class ResponseMetrics {
  private readonly series = new SeriesCache<SeriesOfResponse>();

  constructor(@Inject(METRICS) private readonly metrics: GatewayMetrics) {}

  observe(request: FastifyRequest, status: number, durationMs: number): void {
    const route = request.routeOptions.url ?? 'unmatched';
    const { method } = request;
    const series = this.series.get(`${method} ${status} ${route}`, () => ({
      count: this.metrics.httpRequests.labels({ route, method, status: String(status) }),
      duration: this.metrics.httpDuration.labels({ route, method }),
    }));
    series.count.inc();
    series.duration.observe(durationMs / 1000);
  }
}
