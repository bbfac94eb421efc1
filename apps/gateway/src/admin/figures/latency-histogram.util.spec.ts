import { LATENCY_BOUNDS_MS, LATENCY_COLUMNS, latencyQuantile } from './latency-histogram.util';

/** The histogram of `latencies`, bucketed as Postgres' width_bucket does over the same bounds. */
function histogramOf(latencies: number[]): number[] {
  const counts = new Array<number>(LATENCY_COLUMNS.length).fill(0);
  for (const latency of latencies) {
    counts[LATENCY_BOUNDS_MS.filter((bound) => bound <= latency).length] += 1;
  }
  return counts;
}

describe('latencyQuantile', () => {
  it('has one column per bucket: below the first bound, between bounds, from the last one on', () => {
    expect(LATENCY_COLUMNS).toHaveLength(35);
    expect([LATENCY_COLUMNS[0], LATENCY_COLUMNS[34]]).toEqual(['l00', 'l34']);
  });

  it('gives no quantile of an empty histogram', () => {
    expect(latencyQuantile(histogramOf([]), 0.5)).toBeNull();
  });

  it('lands within the buckets of the values around the true quantile', () => {
    const latencies = [10, 20, 30, 40];
    // percentile_cont gives 25 (between 20 and 30) and 38.5 (between 30 and 40, both in [30, 50)).
    expect(latencyQuantile(histogramOf(latencies), 0.5)).toBe(30);
    expect(latencyQuantile(histogramOf(latencies), 0.95)).toBe(43.5);
    expect(latencyQuantile(histogramOf([42]), 0.5)).toBe(40);
  });

  it('estimates a wide, even spread within a few percent', () => {
    const latencies = Array.from({ length: 3000 }, (_, index) => 20 + index);
    expect(latencyQuantile(histogramOf(latencies), 0.5)).toBeCloseTo(1519.5, -2);
    expect(Math.abs((latencyQuantile(histogramOf(latencies), 0.95) ?? 0) - 2869) / 2869).toBeLessThan(0.05);
  });

  it('answers the lower bound of the open last bucket', () => {
    expect(latencyQuantile(histogramOf([700_000, 900_000]), 0.95)).toBe(600_000);
  });
});
