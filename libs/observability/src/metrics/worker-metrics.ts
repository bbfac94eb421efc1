import { collectDefaultMetrics, Registry } from 'prom-client';
import { createDomainMetrics, type DomainMetrics } from './domain-metrics';

/** What a worker's /metrics serves: the process figures and the business ones it shares with the gateway. */
export interface WorkerMetrics extends DomainMetrics {
  registry: Registry;
}

export function createWorkerMetrics(options: { processMetrics?: boolean } = {}): WorkerMetrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  return { registry, ...createDomainMetrics(registry) };
}
