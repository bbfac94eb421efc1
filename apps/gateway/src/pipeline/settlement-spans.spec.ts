import type { Span, SpanOptions, SpanStatus, Tracer } from '@opentelemetry/api';
import type { SettlementInput } from '@gateway/billing';
import { tracing } from '@gateway/observability';
import { SettlementSpans } from './settlement-spans';

interface RecordedSpan {
  name: string;
  attributes: Record<string, unknown>;
  status?: SpanStatus;
  ended: boolean;
}

/** A tracer whose spans record what is set on them and whether they ended. */
function recordingTracer(): { tracer: Tracer; spans: RecordedSpan[] } {
  const spans: RecordedSpan[] = [];
  const tracer = {
    startSpan(name: string, options?: SpanOptions): Span {
      const record: RecordedSpan = { name, attributes: { ...options?.attributes }, ended: false };
      spans.push(record);
      const span = {
        setAttribute: (key: string, value: unknown) => ((record.attributes[key] = value), span),
        setAttributes: (values: Record<string, unknown>) => (Object.assign(record.attributes, values), span),
        setStatus: (status: SpanStatus) => ((record.status = status), span),
        end: () => {
          record.ended = true;
        },
      };
      return span as unknown as Span;
    },
  } as unknown as Tracer;
  return { tracer, spans };
}

function settlement(requestId: string, model = 'kappa-2.0-flash'): SettlementInput {
  return {
    requestId,
    captureMicros: 1_234n,
    log: {
      model,
      route: '/v1/chat/completions',
      httpStatus: 200,
      endReason: 'completed',
      latencyMs: 3,
      inputTokens: 1,
      outputTokens: 2,
      attempts: 1,
    },
  };
}

describe('SettlementSpans', () => {
  afterEach(() => tracing.disable());

  it('ends the spans of a written batch with its outcome and size, and only those', () => {
    const { tracer, spans } = recordingTracer();
    tracing.enable(tracer);
    const settlementSpans = new SettlementSpans();
    const [first, second, later] = [
      settlement('req_1'),
      settlement('req_2', 'chat-fast'),
      settlement('req_3'),
    ];
    for (const item of [first, second, later]) settlementSpans.begin(item);

    settlementSpans.end([first, second], 'written');

    expect(spans.map((span) => [span.name, span.ended, span.attributes])).toEqual([
      [
        'settlement',
        true,
        {
          'gateway.model': 'kappa-2.0-flash',
          'gateway.request.end_reason': 'completed',
          'gateway.settlement.outcome': 'written',
          'gateway.settlement.batch_size': 2,
        },
      ],
      [
        'settlement',
        true,
        expect.objectContaining({ 'gateway.model': 'chat-fast', 'gateway.settlement.outcome': 'written' }),
      ],
      [
        'settlement',
        false,
        { 'gateway.model': 'kappa-2.0-flash', 'gateway.request.end_reason': 'completed' },
      ],
    ]);
    // No amount leaves the process: the capture is one customer's spending.
    expect(JSON.stringify(spans.map((span) => span.attributes))).not.toContain('1234');

    // A batch settled a second time (a hand-off of the same requests) ends nothing twice.
    settlementSpans.end([first], 'handed_off');
    expect(spans[0].attributes['gateway.settlement.outcome']).toBe('written');
  });

  it('marks the spans failed when the batch could be neither written nor handed off', () => {
    const { tracer, spans } = recordingTracer();
    tracing.enable(tracer);
    const settlementSpans = new SettlementSpans();
    const item = settlement('req_4');
    settlementSpans.begin(item);

    settlementSpans.end([item], 'hand_off_failed');

    expect(spans[0]).toMatchObject({
      ended: true,
      status: { message: 'settlement_hand_off_failed' },
      attributes: {
        'gateway.settlement.outcome': 'hand_off_failed',
        'gateway.failure.kind': 'settlement_hand_off_failed',
      },
    });
  });

  it('keeps nothing while tracing is off', () => {
    const settlementSpans = new SettlementSpans();
    const item = settlement('req_5');
    settlementSpans.begin(item);

    // Tracing turned on later does not give a settlement begun while off a span to end.
    const { tracer, spans } = recordingTracer();
    tracing.enable(tracer);
    settlementSpans.end([item], 'written');
    expect(spans).toEqual([]);
  });
});
