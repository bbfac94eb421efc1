import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { GatewayMetrics } from '@gateway/observability';
import { METRICS } from '../infrastructure/tokens';

/** Request counts and latency by route pattern (never the raw URL: ids and keys would explode the series). */
@Injectable()
export class ResponseMetrics {
  constructor(@Inject(METRICS) private readonly metrics: GatewayMetrics) {}

  observe(request: FastifyRequest, status: number, durationMs: number): void {
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { route, method: request.method, status: String(status) };
    this.metrics.httpRequests.inc(labels);
    this.metrics.httpDuration.observe({ route, method: request.method }, durationMs / 1000);
  }
}
