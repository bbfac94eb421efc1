/**
 * The latency histogram of the overview's rollup (request_log_minutes.l00 … l34, migration
 * request_log_rollups): bucket 0 holds latencies below 1 ms, bucket i the latencies from
 * LATENCY_BOUNDS_MS[i-1] up to LATENCY_BOUNDS_MS[i], the last one from 600 s on (Postgres'
 * width_bucket over the same bounds). The 1-1.5-2-3-5-7 series keeps each bucket within about half
 * of its lower bound, fine enough for a chart's p50 and p95, with 35 integer columns that sum fast.
 */
export const LATENCY_BOUNDS_MS = [
  1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1_000, 1_500, 2_000, 3_000, 5_000,
  7_000, 10_000, 15_000, 20_000, 30_000, 50_000, 70_000, 100_000, 150_000, 200_000, 300_000, 600_000,
] as const;

/** The histogram's column names, l00 to l34. */
export const LATENCY_COLUMNS: readonly string[] = Array.from(
  { length: LATENCY_BOUNDS_MS.length + 1 },
  (_, index) => `l${String(index).padStart(2, '0')}`,
);

/** The bounds as a Postgres int[] literal, for width_bucket. */
export const LATENCY_BOUNDS_SQL = `ARRAY[${LATENCY_BOUNDS_MS.join(',')}]`;

/**
 * The q-quantile (0–1) of the latencies a histogram counts, as percentile_cont defines it (the value at
 * position q·(n−1) of the sorted values, interpolated between the two around it), each bucket's values
 * taken as spread evenly across it. Values in the last, open bucket count as its lower bound. Null for
 * an empty histogram.
 */
export function latencyQuantile(counts: readonly number[], q: number): number | null {
  let total = 0;
  for (let index = 0; index < counts.length; index += 1) total += counts[index];
  if (total === 0) return null;
  const position = q * (total - 1);
  const below = Math.floor(position);
  const low = valueAt(counts, below);
  const high = below + 1 < total ? valueAt(counts, below + 1) : low;
  return Math.round((low + (high - low) * (position - below)) * 10) / 10;
}

/**
 * The estimated k-th smallest latency (0-based): the middle of its slice of its bucket. Plain indexed
 * loops: the overview estimates two quantiles for each of up to 20,000 points per answer.
 */
function valueAt(counts: readonly number[], k: number): number {
  let before = 0;
  for (let index = 0; index < counts.length; index += 1) {
    const count = counts[index];
    if (k < before + count) {
      const lower = index === 0 ? 0 : LATENCY_BOUNDS_MS[index - 1];
      const upper = LATENCY_BOUNDS_MS[index];
      if (upper === undefined) return lower;
      return lower + ((upper - lower) * (k - before + 0.5)) / count;
    }
    before += count;
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1];
}
