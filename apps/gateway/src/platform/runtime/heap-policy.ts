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

// perf-machinery: no-allocation-site-pretenuring (docs/performance-machinery.md)
/**
 * Turns off V8's allocation-site pretenuring unless `enabled`. When most objects of one allocation
 * site survived a young collection once (a burst while the process warmed up is enough), V8
 * allocates that site's later objects straight in the old generation. On a request path that is
 * the wrong guess: such a per-request object lives in old space, and until the next full
 * collection every young object it points to (the request, its reply, its closures) counts as
 * alive to each scavenge and is promoted in turn. A replica under the text bench then promoted
 * 1.8 MB per scavenge instead of 0.2 and ran a full collection every 0.6 s; with the flag off it
 * promotes what earlier builds did. Set once, before the app is built (V8 reads it at every
 * allocation site it compiles and every scavenge).
 */
export function applyHeapPretenuring(enabled: boolean): void {
  if (!enabled) setFlagsFromString('--no-allocation-site-pretenuring');
}
