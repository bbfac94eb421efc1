import type { Span, SpanOptions, Tracer } from '@opentelemetry/api';
import { Tracing } from './tracing';
import { tracesUrlOf } from './start-tracing';

/** A tracer that records what spans were asked for, with a span that records what was set on it. */
function recordingTracer() {
  const started: Array<{
    name: string;
    options: SpanOptions | undefined;
    attributes: Record<string, unknown>;
  }> = [];
  const tracer = {
    startSpan(name: string, options?: SpanOptions): Span {
      const record = { name, options, attributes: { ...options?.attributes } as Record<string, unknown> };
      started.push(record);
      const span = {
        setAttribute: (key: string, value: unknown) => ((record.attributes[key] = value), span),
        setAttributes: (values: Record<string, unknown>) => (Object.assign(record.attributes, values), span),
        setStatus: () => span,
        end: () => undefined,
        spanContext: () => ({ traceId: '0'.repeat(31) + '1', spanId: '0'.repeat(15) + '1', traceFlags: 1 }),
        isRecording: () => true,
      };
      return span as unknown as Span;
    },
  } as unknown as Tracer;
  return { tracer, started };
}

describe('Tracing', () => {
  it('creates nothing while off: no span, no traceparent, the callback runs as is', async () => {
    const tracing = new Tracing();

    expect(tracing.enabled).toBe(false);
    expect(tracing.startSpan('hold')).toBeUndefined();
    expect(tracing.startRootSpan('POST /v1/videos')).toBeUndefined();
    expect(tracing.traceparent()).toBeUndefined();
    await expect(tracing.inSpan('settlement', {}, async (span) => span)).resolves.toBeUndefined();
    await expect(
      tracing.inRemoteSpan('00-abc', 'task step', {}, async (span) => span),
    ).resolves.toBeUndefined();
  });

  it('drops attributes whose names say they hold a key, a secret or a payload', () => {
    const tracing = new Tracing();
    const { tracer, started } = recordingTracer();
    tracing.enable(tracer);

    const span = tracing.startSpan('upstream submit', {
      'gateway.channel.id': 'chan_1',
      'gateway.api_key': 'gk_live_x',
      'upstream.secret': 's',
      'gateway.prompt': 'a boat',
      'http.request.body.size': 12,
    });
    tracing.annotate(span, { 'gateway.upstream.outcome': 'submitted', authorization: 'Bearer x' });

    expect(started[0].attributes).toEqual({
      'gateway.channel.id': 'chan_1',
      'gateway.upstream.outcome': 'submitted',
    });
  });

  it('marks a span failed with the kind a rejection stands for, and not for one that is no failure', async () => {
    const tracing = new Tracing();
    const { tracer, started } = recordingTracer();
    tracing.enable(tracer);

    await expect(
      tracing.inSpan(
        'upstream poll',
        {},
        async () => Promise.reject(new Error('429 from upstream')),
        () => 'rate_limit',
      ),
    ).rejects.toThrow('429');
    await expect(
      tracing.inSpan(
        'task step',
        {},
        async () => Promise.reject(new Error('delayed')),
        () => undefined,
      ),
    ).rejects.toThrow('delayed');

    expect(started.map((span) => span.attributes['gateway.failure.kind'])).toEqual(['rate_limit', undefined]);
  });
});

describe('tracesUrlOf', () => {
  it('is off without an endpoint, appends /v1/traces to the OTLP endpoint, and takes a traces endpoint as is', () => {
    expect(tracesUrlOf({})).toBeUndefined();
    expect(tracesUrlOf({ OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toBeUndefined();
    expect(tracesUrlOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe(
      'http://collector:4318/v1/traces',
    );
    expect(
      tracesUrlOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9999/custom',
      }),
    ).toBe('http://traces:9999/custom');
  });
});
