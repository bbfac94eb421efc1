// How the load went through each fault: when a request sent after it first succeeded, when the service
// answered again for good, and which failures the requests sent before the next fault met. Both times
// are given because a process can answer a request or two after the fault and die a moment later.

const earliestEnd = (outcomes) =>
  outcomes.reduce(
    (earliest, outcome) => (earliest && earliest.endMs <= outcome.endMs ? earliest : outcome),
    null,
  );

/**
 * `faults`: [{ fault, atMs }] in the order they happened; `outcomes`: classified requests with
 * { startMs, endMs, ok, failure } on the same clock. A failure belongs to the last fault before it
 * ended (a request in flight when a process is killed fails because of that kill). For each fault:
 * - `firstSuccessMs`: from the fault to the end of the first successful request sent after it;
 * - `recoveryMs`: from the fault to the end of the first successful request sent after its last
 *   failure was sent (the first success when it has no failure); null when none succeeded;
 * - `lastFailureMs`: when its last failed request was sent, from the fault (0 when in flight at it;
 *   null when none failed);
 * - `failuresInWindow`: [kind, count] of its failures, most frequent first.
 */
export function recoveryAfterFaults(faults, outcomes) {
  return faults.map((fault, index) => {
    const windowEndMs = faults[index + 1]?.atMs ?? Infinity;
    const failures = outcomes.filter(
      (outcome) => !outcome.ok && outcome.endMs >= fault.atMs && outcome.endMs < windowEndMs,
    );
    const lastFailureStartMs = failures.reduce(
      (latest, outcome) => Math.max(latest, outcome.startMs),
      -Infinity,
    );
    const successesAfter = outcomes.filter((outcome) => outcome.ok && outcome.startMs >= fault.atMs);
    const firstSuccess = earliestEnd(successesAfter);
    const recovered = earliestEnd(successesAfter.filter((outcome) => outcome.startMs > lastFailureStartMs));
    const byKind = new Map();
    for (const { failure } of failures) byKind.set(failure, (byKind.get(failure) ?? 0) + 1);
    return {
      ...fault,
      firstSuccessMs: firstSuccess ? firstSuccess.endMs - fault.atMs : null,
      recoveryMs: recovered ? recovered.endMs - fault.atMs : null,
      lastFailureMs: failures.length > 0 ? Math.max(0, lastFailureStartMs - fault.atMs) : null,
      failuresInWindow: [...byKind].sort(([kindA, a], [kindB, b]) => b - a || kindA.localeCompare(kindB)),
    };
  });
}
