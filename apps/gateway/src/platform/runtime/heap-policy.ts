import { setFlagsFromString } from 'node:v8';

// perf-machinery: heap-growing-percent (docs/performance-machinery.md)
/**
 * Fixes how far the old generation may grow past what the last full collection kept alive before
 * the next one. V8 reads the factor at every full collection, so it can be set once the process
 * runs. V8's own factor is derived from the collector's measured speed against the rate of
 * promotion, and falls back to its maximum (4.0 under Node's default heap limit) whenever that
 * measurement is missing or slow: after an idle spell, or a collection stretched by a busy CPU. A
 * replica under steady load then piles its old space up to four times its live data (about 30 MiB)
 * before collecting. A fixed factor keeps RSS steady at the cost of collections that are cheap
 * while little is promoted (docs/performance-analysis.md); 0 keeps V8's own policy.
 */
export function applyHeapGrowingPercent(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
