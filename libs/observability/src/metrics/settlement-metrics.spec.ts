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

  it('hands counts kept since the last scrape over at the next one: none lost, none counted twice', async () => {
    const metrics = createMetrics();
    const settlements = new SettlementMetrics(metrics);
    const settle = (inputTokens: number, capturedMicros: bigint) =>
      settlements.settled({
        model: 'kappa-2.0-flash',
        inputTokens,
        outputTokens: 0,
        capturedMicros,
        ttfbMs: undefined,
      });

    settle(10, 100n);
    expect(await metrics.registry.metrics()).toContain(
      'gateway_tokens_total{model="kappa-2.0-flash",direction="input"} 10',
    );
    settle(5, 50n);
    settle(1, 0n);
    const text = await metrics.registry.metrics();
    expect(text).toContain('gateway_tokens_total{model="kappa-2.0-flash",direction="input"} 16');
    expect(text).toContain('gateway_spend_micros_total{model="kappa-2.0-flash"} 150');
    // A scrape with nothing new reads the same totals.
    expect(await metrics.registry.metrics()).toContain(
      'gateway_spend_micros_total{model="kappa-2.0-flash"} 150',
    );
    // The counter read on its own (not through the registry) is brought up to date too.
    settle(4, 0n);
    const input = (await metrics.tokens.get()).values.find((value) => value.labels.direction === 'input');
    expect(input?.value).toBe(20);
  });
});
