// perf-machinery: turn-end-answers (docs/performance-machinery.md)
/**
 * Whole answers written together at the end of the event loop's turn, while other requests are in
 * flight. Each answer's write wakes the client's process when it sleeps, and on a loaded instance a
 * turn answers many requests: written as each is ready, each write wakes the client again (the
 * kernel's share of a request, docs/performance-analysis.md); written back to back, the first wakes
 * it and the others find it awake. A lone request (nothing else in flight) is answered at once.
 */
const pending: Array<() => void> = [];

function sendPending(): void {
  const sends = pending.splice(0);
  for (const send of sends) send();
}

/** Runs `send` once the turn's I/O callbacks and microtasks are done; it must not throw. */
export function sendAtTurnEnd(send: () => void): void {
  if (pending.push(send) === 1) setImmediate(sendPending);
}
