import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { createDomainMetrics, type DomainMetrics } from './domain-metrics';
import { LATENCY_BUCKETS_SECONDS } from './latency-buckets';

export { LATENCY_BUCKETS_SECONDS };

/** The gateway's own series, and the business ones it shares with the workers (DomainMetrics). */
export interface GatewayMetrics extends DomainMetrics {
  /** Dedicated registry: what `/metrics` serves, independent of the global prom-client one. */
  registry: Registry;
  httpRequests: Counter<'route' | 'method' | 'status'>;
  httpDuration: Histogram<'route' | 'method'>;
  upstreamErrors: Counter<'channel' | 'kind'>;
  upstreamDuration: Histogram<'channel'>;
  queueDepth: Gauge<'queue' | 'state'>;
  /** Tasks not yet ended, by kind and status (queued, processing): the admin instance samples them. */
  tasksOpen: Gauge<'kind' | 'status'>;
  holdsOpen: Gauge;
  /** Micros of usage cost that accounts could not pay, left uncaptured (the request logs' overage). */
  uncapturedMicros: Counter;
  /** Requests admitted without their Redis-held limits because Redis did not answer (fail open). */
  governanceFailOpen: Counter;
  /** Requests refused by a key's or an account's governance, by reason. */
  governanceRefusals: Counter<'reason'>;
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
    ...createDomainMetrics(registry),
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
    tasksOpen: new Gauge({
      name: 'gateway_tasks_open',
      help: 'Tasks not yet ended, by kind and status (queued, processing); sampled at scrape by the admin instance.',
      labelNames: ['kind', 'status'],
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
    governanceFailOpen: new Counter({
      name: 'gateway_governance_fail_open_total',
      help:
        'Requests admitted without checking their per-minute and concurrency limits because Redis did not ' +
        'answer; budgets are still enforced from Postgres.',
      registers,
    }),
    governanceRefusals: new Counter({
      name: 'gateway_governance_refusals_total',
      help: 'Requests refused by a key or account limit, budget or IP allow-list, by reason.',
      labelNames: ['reason'],
      registers,
    }),
  };
}
