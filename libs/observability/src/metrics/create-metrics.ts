import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Latency buckets in seconds, from 0.5 ms (a cached auth check, a local error) to 60 s (the slowest
 * upstream answers), about three per decade so percentiles stay meaningful across the range.
 */
export const LATENCY_BUCKETS_SECONDS: readonly number[] = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 45, 60,
];

export interface GatewayMetrics {
  /** Dedicated registry: what `/metrics` serves, independent of the global prom-client one. */
  registry: Registry;
  httpRequests: Counter<'route' | 'method' | 'status'>;
  httpDuration: Histogram<'route' | 'method'>;
  upstreamErrors: Counter<'channel' | 'kind'>;
  upstreamDuration: Histogram<'channel'>;
  queueDepth: Gauge<'queue' | 'state'>;
  holdsOpen: Gauge;
  /** Micros of usage cost that accounts could not pay, left uncaptured (the request logs' overage). */
  uncapturedMicros: Counter;
}

export interface MetricsOptions {
  /** Also collect the process metrics (CPU, memory, event loop, GC). */
  processMetrics?: boolean;
}

export function createMetrics(options: MetricsOptions = {}): GatewayMetrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  return {
    registry,
    httpRequests: new Counter({
      name: 'gateway_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status code.',
      labelNames: ['route', 'method', 'status'],
      registers,
    }),
    httpDuration: new Histogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'Time from request arrival to the end of the response, by route pattern and method.',
      labelNames: ['route', 'method'],
      buckets: [...LATENCY_BUCKETS_SECONDS],
      registers,
    }),
    upstreamErrors: new Counter({
      name: 'gateway_upstream_errors_total',
      help: 'Failed upstream calls, by channel and error kind.',
      labelNames: ['channel', 'kind'],
      registers,
    }),
    upstreamDuration: new Histogram({
      name: 'gateway_upstream_duration_seconds',
      help: 'Time of one upstream call until its response headers, by channel.',
      labelNames: ['channel'],
      buckets: [...LATENCY_BUCKETS_SECONDS],
      registers,
    }),
    queueDepth: new Gauge({
      name: 'gateway_queue_jobs',
      help: 'Jobs in a queue, by queue and state (waiting, active, delayed, failed).',
      labelNames: ['queue', 'state'],
      registers,
    }),
    holdsOpen: new Gauge({
      name: 'gateway_holds_open',
      help: 'Balance holds taken and not yet settled.',
      registers,
    }),
    uncapturedMicros: new Counter({
      name: 'gateway_uncaptured_micros_total',
      help:
        'Cost of reported usage beyond what the account could pay (its balance down to minus its ' +
        'overdraft limit), not captured: the overage on the request logs of the settlements written here.',
      registers,
    }),
  };
}
