import { setFlagsFromString } from 'node:v8';

/**
 * Sets how far the heap may grow past its live data before the next full collection. V8 reads this
 * factor at every collection, so it can be set once the process runs. Its own policy lets a busy
 * gateway (about 45 MiB live) pile garbage up to 150 MiB of old space between collections; a low
 * factor trades that memory for more frequent collections (docs/performance-analysis.md).
 */
export function applyHeapGrowingPercent(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
