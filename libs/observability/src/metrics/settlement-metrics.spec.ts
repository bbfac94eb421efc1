import { createMetrics } from './create-metrics';
import { SettlementMetrics } from './settlement-metrics';

describe('SettlementMetrics', () => {
  it('adds tokens, captured spend and time to first byte by model', async () => {
    const metrics = createMetrics();
    const settlements = new SettlementMetrics(metrics);

    settlements.settled({
      model: 'kappa-2.0-flash',
      inputTokens: 12,
      outputTokens: 30,
      capturedMicros: 420n,
      ttfbMs: 180,
    });
    settlements.settled({
      model: 'kappa-2.0-flash',
      inputTokens: 3,
      outputTokens: 0,
      capturedMicros: 0n,
      ttfbMs: undefined,
    });
    settlements.settled({
      model: undefined,
      inputTokens: 1,
      outputTokens: 1,
      capturedMicros: 5n,
      ttfbMs: undefined,
    });
    const text = await metrics.registry.metrics();

    expect(text).toContain('gateway_tokens_total{model="kappa-2.0-flash",direction="input"} 15');
    expect(text).toContain('gateway_tokens_total{model="kappa-2.0-flash",direction="output"} 30');
    expect(text).toContain('gateway_spend_micros_total{model="kappa-2.0-flash"} 420');
    expect(text).toContain('gateway_spend_micros_total{model="unknown"} 5');
    // Only the stream's settlement has a first byte.
    expect(text).toContain('gateway_stream_first_byte_seconds_count{model="kappa-2.0-flash"} 1');
    expect(text).toContain('gateway_stream_first_byte_seconds_bucket{le="0.25",model="kappa-2.0-flash"} 1');
    expect(text).toContain('gateway_stream_first_byte_seconds_bucket{le="0.1",model="kappa-2.0-flash"} 0');
  });
});
