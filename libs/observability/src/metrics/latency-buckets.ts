/**
 * Latency buckets in seconds, from 0.5 ms (a cached auth check, a local error) to 60 s (the slowest
 * upstream answers), about three per decade so percentiles stay meaningful across the range.
 */
export const LATENCY_BUCKETS_SECONDS: readonly number[] = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 45, 60,
];
