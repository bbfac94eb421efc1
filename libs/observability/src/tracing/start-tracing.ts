import { context, propagation, trace } from '@opentelemetry/api';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { tracing } from './tracing';

/** The variables read here: OpenTelemetry's own names, so collectors' usual setups apply. */
export type TracingEnvironment = Readonly<Record<string, string | undefined>>;

let provider: NodeTracerProvider | undefined;

/**
 * The URL spans are posted to (OTLP over HTTP, JSON): OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given,
 * else OTEL_EXPORTER_OTLP_ENDPOINT with /v1/traces; undefined (tracing off) when neither is set.
 */
export function tracesUrlOf(env: TracingEnvironment): string | undefined {
  const tracesEndpoint = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']?.trim();
  if (tracesEndpoint) return tracesEndpoint;
  const endpoint = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim();
  if (!endpoint) return undefined;
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * Turns tracing on for this process when an OTLP endpoint is configured; resolves whether it did.
 * The SDK and the exporter are loaded only then: a process without tracing never holds them in
 * memory. Spans leave in batches from a background timer, never on a request's path. A second call
 * (two apps in one test process) keeps the first setup.
 */
export async function startTracing(env: TracingEnvironment, serviceName: string): Promise<boolean> {
  if (provider) return true;
  const url = tracesUrlOf(env);
  if (url === undefined) return false;
  const { OTLPTraceExporter, resourceFromAttributes, sdk, ATTR_SERVICE_NAME } = loadSdk();
  provider = new sdk.NodeTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: env['OTEL_SERVICE_NAME']?.trim() || serviceName,
    }),
    spanProcessors: [
      new sdk.BatchSpanProcessor(new OTLPTraceExporter({ url }), { scheduledDelayMillis: 1_000 }),
    ],
  });
  // The async-hooks context manager and the W3C propagator: what carries a span across awaits and queues.
  provider.register();
  tracing.enable(trace.getTracer(serviceName));
  return true;
}

/**
 * The SDK, the exporter and their helpers, required only when tracing is turned on (a synchronous
 * require: Jest's module system cannot run a dynamic import without an experimental flag).
 */
function loadSdk() {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded on demand, see above */
  const exporter =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const resources = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const sdk = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const conventions =
    require('@opentelemetry/semantic-conventions') as typeof import('@opentelemetry/semantic-conventions');
  /* eslint-enable @typescript-eslint/no-require-imports */
  return {
    OTLPTraceExporter: exporter.OTLPTraceExporter,
    resourceFromAttributes: resources.resourceFromAttributes,
    sdk,
    ATTR_SERVICE_NAME: conventions.ATTR_SERVICE_NAME,
  };
}

/** Sends the spans still buffered and turns tracing off; for shutdown (and between tests). */
export async function stopTracing(): Promise<void> {
  const current = provider;
  provider = undefined;
  tracing.disable();
  if (!current) return;
  await current.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
}

/** Sends the spans buffered so far without stopping (tests read the receiver afterwards). */
export async function flushTracing(): Promise<void> {
  await provider?.forceFlush();
}
