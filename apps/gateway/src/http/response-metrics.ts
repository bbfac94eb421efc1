import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { GatewayMetrics } from '@gateway/observability';
import { METRICS } from '../infrastructure/tokens';

interface SeriesOfResponse {
  count: { inc(): void };
  duration: { observe(seconds: number): void };
}

/** Request counts and latency by route pattern (never the raw URL: ids and keys would explode the series). */
@Injectable()
export class ResponseMetrics {
  /**
   * The labelled series per method, route pattern and status, looked up once: prom-client hashes the
   * label object on every call otherwise. Bounded by the routes the app declares.
   */
  private readonly series = new Map<string, SeriesOfResponse>();

  constructor(@Inject(METRICS) private readonly metrics: GatewayMetrics) {}

  observe(request: FastifyRequest, status: number, durationMs: number): void {
    const route = request.routeOptions.url ?? 'unmatched';
    const id = `${request.method} ${status} ${route}`;
    let series = this.series.get(id);
    if (!series) {
      series = {
        count: this.metrics.httpRequests.labels({ route, method: request.method, status: String(status) }),
        duration: this.metrics.httpDuration.labels({ route, method: request.method }),
      };
      this.series.set(id, series);
    }
    series.count.inc();
    series.duration.observe(durationMs / 1000);
  }
}
