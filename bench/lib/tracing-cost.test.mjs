// The gateway-traced target: its environment, the OTLP sink it exports to (fed by the real
// OpenTelemetry exporter), its place in each scenario's rounds, and the tracing-cost section.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BatchSpanProcessor, BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { countSpans, startOtlpSink } from '../otlp-sink.mjs';
import { scenarioPlan, SCENARIOS } from './scenarios.mjs';
import { replicaEnv } from './targets.mjs';
import { compareTracing, readOtlpSinkStats, renderTracingSection } from './tracing-cost.mjs';

let sink;
before(async () => {
  sink = await startOtlpSink();
});
after(() => sink.close());

const BASE_ENV = {
  DATABASE_URL: 'postgresql://bench',
  LOG_LEVEL: 'info',
  // As if the harness's own shell had a collector configured: only the traced replica may use it.
  OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces',
};

test('only gateway-traced exports spans, to the sink; every other replica has tracing off', () => {
  const traced = replicaEnv('gateway-traced', BASE_ENV, { port: 4100, otlpSinkUrl: sink.url });
  assert.equal(traced.OTEL_EXPORTER_OTLP_ENDPOINT, sink.url);
  assert.equal(traced.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, '');
  assert.equal(traced.OTEL_SERVICE_NAME, 'gateway-traced');
  assert.equal(traced.LOG_LEVEL, 'info');
  assert.equal(traced.PORT, '4100');
  assert.equal(traced.ADMIN_API_ENABLED, 'false');

  for (const name of ['gateway', 'gateway-warn', 'baseline']) {
    const env = replicaEnv(name, BASE_ENV, { port: 4101, otlpSinkUrl: sink.url });
    assert.equal(env.OTEL_EXPORTER_OTLP_ENDPOINT, '', name);
    assert.equal(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, '', name);
    assert.equal(env.OTEL_SERVICE_NAME, undefined, name);
  }
  assert.equal(replicaEnv('gateway-warn', BASE_ENV, { port: 4102 }).LOG_LEVEL, 'warn');
  assert.throws(() => replicaEnv('gateway-traced', BASE_ENV, { port: 4103 }), /OTLP sink/);
});

test('the sink counts the spans the OpenTelemetry exporter sends it, and refuses what is not OTLP JSON', async () => {
  const provider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${sink.url}/v1/traces` }))],
  });
  const tracer = provider.getTracer('bench-test');
  for (let i = 0; i < 5; i += 1) tracer.startSpan(`span ${i}`).end();
  await provider.forceFlush();
  await provider.shutdown();

  const stats = await readOtlpSinkStats({ otlpSinkUrl: sink.url });
  assert.equal(stats.spans, 5);
  assert.ok(stats.exports >= 1);
  assert.ok(stats.bytes > 0);

  const refused = await fetch(`${sink.url}/v1/traces`, { method: 'POST', body: '{"resourceSpans": [' });
  assert.equal(refused.status, 400);
  assert.equal((await fetch(`${sink.url}/v1/metrics`, { method: 'POST', body: '{}' })).status, 404);
  assert.deepEqual(
    { exports: sink.stats.exports, spans: sink.stats.spans, refused: sink.stats.refused },
    { exports: stats.exports, spans: 5, refused: 1 },
  );
});

test('countSpans reads every scope of every resource and tolerates missing levels', () => {
  assert.equal(
    countSpans({
      resourceSpans: [{ scopeSpans: [{ spans: [{}, {}] }, { spans: [{}] }] }, { scopeSpans: [{}] }, {}],
    }),
    3,
  );
  assert.equal(countSpans({}), 0);
  assert.equal(countSpans(null), 0);
});

test('gateway-traced runs whatever the gateway runs, right after it and before the baseline', () => {
  const latency = SCENARIOS.find((scenario) => scenario.name === 'latency');
  const families = { families: { native: {}, openai: {} } };
  const plan = scenarioPlan(latency, {
    gateway: families,
    'gateway-traced': families,
    baseline: families,
    direct: families,
  });
  for (const entry of plan) {
    const names = entry.targets.filter((name) => name.startsWith('gateway') || name === 'baseline');
    assert.deepEqual(names, ['gateway', 'gateway-traced', 'baseline']);
  }
  // Not started: not planned.
  assert.ok(
    scenarioPlan(latency, { gateway: families }).every((entry) => !entry.targets.includes('gateway-traced')),
  );
});

/** One wrk run as run.mjs records it. */
const run = (target, round, { cpu, rps, p50, noisy = false }) => ({
  scenario: 'latency',
  family: 'openai',
  target,
  round,
  noisy,
  rps,
  cpu: { targetUsPerRequest: cpu },
  latencyUs: { p50, p99: p50 * 2 },
});

test('the tracing cost is the median of per-round traced / plain ratios, noisy rounds left out', () => {
  const runs = [
    run('gateway', 1, { cpu: 200, rps: 4000, p50: 500 }),
    run('gateway-traced', 1, { cpu: 240, rps: 3600, p50: 550 }),
    // A slow phase of the machine slows both sides: the ratio holds.
    run('gateway', 2, { cpu: 400, rps: 2000, p50: 1000 }),
    run('gateway-traced', 2, { cpu: 480, rps: 1800, p50: 1100 }),
    run('gateway', 3, { cpu: 200, rps: 4000, p50: 500, noisy: true }),
    run('gateway-traced', 3, { cpu: 900, rps: 1000, p50: 5000 }),
    // The warm-up round (0) never counts.
    run('gateway', 0, { cpu: 1, rps: 1, p50: 1 }),
    run('gateway-traced', 0, { cpu: 100, rps: 1, p50: 1 }),
  ];
  const cpu = compareTracing(runs).find((row) => row.figure === 'CPU µs/request');
  assert.equal(cpu.ratio.toFixed(3), '1.200');
  assert.equal(cpu.rounds, 2);
  assert.equal(cpu.subject, 360);
  assert.equal(cpu.reference, 300);

  const section = renderTracingSection({
    runs,
    meta: { otlpSink: { exports: 12, spans: 48_000, bytes: 3_145_728, refused: 0 } },
  });
  assert.match(section, /\| latency \| .* \| CPU µs\/request \| 360 \| 300 \| 1\.200× \| 2 \|/);
  assert.match(section, /The sink received 48,000 spans in 12 exports \(3\.0 MiB\), 0 refused\./);
  assert.equal(renderTracingSection({ runs: runs.filter((entry) => entry.target === 'gateway') }), null);
});
