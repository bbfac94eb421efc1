import type { RequestOutcome, TrafficKind } from './cluster-load';

/** A fault the test caused, `at` in ms since the load started. */
export interface FaultEvent {
  name: string;
  at: number;
  /** How long the faulty part took to be back (failover, restart until answering). */
  componentRecoveryMs: number;
}

export interface FaultFigures {
  fault: string;
  atSeconds: number;
  componentRecoveryMs: number;
  /** Failed requests from the fault until the next one, by kind of traffic. */
  failed: Partial<Record<TrafficKind, number>>;
  /** From the fault until the last failed request of its window: what clients saw of it (0: nothing). */
  clientRecoveryMs: number;
}

/** Requests that failed before `before` (ms since the load started). */
export function failuresBefore(outcomes: readonly RequestOutcome[], before: number): RequestOutcome[] {
  return outcomes.filter((outcome) => !outcome.ok && outcome.at < before);
}

/** For each fault, the requests that failed in its window and how long clients saw it. */
export function figuresOfFaults(
  outcomes: readonly RequestOutcome[],
  faults: readonly FaultEvent[],
): FaultFigures[] {
  return faults.map((fault, index) => {
    const end = faults[index + 1]?.at ?? Number.POSITIVE_INFINITY;
    const failed = outcomes.filter((outcome) => !outcome.ok && outcome.at >= fault.at && outcome.at < end);
    const byKind: Partial<Record<TrafficKind, number>> = {};
    for (const outcome of failed) byKind[outcome.kind] = (byKind[outcome.kind] ?? 0) + 1;
    const lastFailure = failed.reduce((latest, outcome) => Math.max(latest, outcome.at), fault.at);
    return {
      fault: fault.name,
      atSeconds: Math.round(fault.at / 100) / 10,
      componentRecoveryMs: fault.componentRecoveryMs,
      failed: byKind,
      clientRecoveryMs: lastFailure - fault.at,
    };
  });
}

/** Requests sent and failed, by kind of traffic. */
export function totalsByKind(
  outcomes: readonly RequestOutcome[],
): Record<string, { sent: number; failed: number }> {
  const totals: Record<string, { sent: number; failed: number }> = {};
  for (const outcome of outcomes) {
    const entry = (totals[outcome.kind] ??= { sent: 0, failed: 0 });
    entry.sent += 1;
    if (!outcome.ok) entry.failed += 1;
  }
  return totals;
}

/** The distinct failures (status and the start of the body), for the printed report. */
export function failureSamples(outcomes: readonly RequestOutcome[], limit = 8): string[] {
  const seen = new Map<string, number>();
  for (const outcome of outcomes) {
    if (outcome.ok) continue;
    const label = `${outcome.kind} ${outcome.status} ${outcome.detail ?? ''}`.slice(0, 160);
    seen.set(label, (seen.get(label) ?? 0) + 1);
  }
  return [...seen.entries()].slice(0, limit).map(([label, count]) => `${count}× ${label}`);
}
