import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMetrics } from './create-metrics';
import { createWorkerMetrics } from './worker-metrics';

const DASHBOARD = join(__dirname, '..', '..', '..', '..', 'deploy', 'grafana', 'gateway-dashboard.json');
/** Prometheus' series suffixes of a histogram (and a summary) over its metric's name. */
const SERIES_SUFFIX = /_(bucket|sum|count)$/;
/** Metric names in the queries: the gateway's own series and Node's process figures. */
const METRIC_NAME = /\b(?:gateway|process|nodejs)_[a-z0-9_]+\b/g;

interface Panel {
  type: string;
  title: string;
  targets?: Array<{ expr: string }>;
  panels?: Panel[];
}

function panelsOf(panels: Panel[]): Panel[] {
  return panels.flatMap((panel) => [panel, ...panelsOf(panel.panels ?? [])]);
}

/** Every metric the processes export: the gateway's registry and a worker's, as /metrics serves them. */
async function exportedNames(): Promise<Set<string>> {
  const registries = [
    createMetrics({ processMetrics: true }).registry,
    createWorkerMetrics({ processMetrics: true }).registry,
  ];
  const names = new Set<string>();
  for (const registry of registries)
    for (const metric of await registry.getMetricsAsJSON()) names.add(metric.name);
  return names;
}

describe('deploy/grafana/gateway-dashboard.json', () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    uid: string;
    panels: Panel[];
    templating: { list: Array<{ query: { query: string } }> };
  };
  const panels = panelsOf(dashboard.panels).filter((panel) => panel.type !== 'row');
  const expressions = [
    ...panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)),
    ...dashboard.templating.list.map((variable) => variable.query.query),
  ];

  it('is a dashboard with a query in every panel', () => {
    expect(dashboard.uid).toBe('generation-gateway');
    expect(panels.length).toBeGreaterThan(10);
    expect(panels.filter((panel) => (panel.targets ?? []).length === 0).map((panel) => panel.title)).toEqual(
      [],
    );
  });

  it('names only metrics that the gateway or a worker exports', async () => {
    const exported = await exportedNames();
    const referenced = new Set(
      expressions
        .flatMap((expression) => expression.match(METRIC_NAME) ?? [])
        .map((name) => name.replace(SERIES_SUFFIX, '')),
    );
    expect(referenced.size).toBeGreaterThan(15);
    expect([...referenced].filter((name) => !exported.has(name))).toEqual([]);
  });

  it('shows every business series the processes share', async () => {
    const shared = [
      'gateway_tokens_total',
      'gateway_spend_micros_total',
      'gateway_stream_first_byte_seconds',
      'gateway_task_transitions_total',
      'gateway_task_completion_lag_seconds',
      'gateway_limit_refusals_total',
      'gateway_pg_pool_connections',
      'gateway_redis_connection_ready',
      'gateway_leases_open',
      'gateway_tasks_open',
      'gateway_webhook_deliveries_total',
    ];
    const text = expressions.join('\n');
    expect(shared.filter((name) => !text.includes(name))).toEqual([]);
  });
});
