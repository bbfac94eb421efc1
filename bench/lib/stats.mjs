// Small, pure statistics: percentiles of samples, medians across rounds, per-round comparisons.

/** Linear-interpolated percentile (p in 0..100) of unsorted samples; null for no samples. */
export function percentile(samples, p) {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const position = (p / 100) * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

/** Median of the finite numbers among values; null when there are none. */
export function median(values) {
  const numbers = values.filter((value) => typeof value === 'number' && Number.isFinite(value));
  return numbers.length === 0 ? null : percentile(numbers, 50);
}

export function ratio(value, reference) {
  if (typeof value !== 'number' || typeof reference !== 'number' || reference === 0) return null;
  return value / reference;
}

export function delta(value, reference) {
  if (typeof value !== 'number' || typeof reference !== 'number') return null;
  return value - reference;
}

/**
 * Per-round comparisons of one target against a reference target (runs of the same scenario and
 * route), then their medians. A round counts as clean when both runs are; the medians use the clean
 * rounds, or every round (flagged `noisy`) when none is clean.
 *
 * runs: [{ target, round, rps, latencyUs: { p50, p99 }, noisy }]
 */
export function compareToReference(runs, target, reference) {
  const byRound = new Map();
  for (const run of runs) {
    if (run.round < 1) continue;
    const entry = byRound.get(run.round) ?? {};
    if (run.target === target) entry.target = run;
    if (run.target === reference) entry.reference = run;
    byRound.set(run.round, entry);
  }
  const rounds = [];
  for (const [round, { target: targetRun, reference: referenceRun }] of [...byRound].sort(
    (a, b) => a[0] - b[0],
  )) {
    if (!targetRun || !referenceRun) continue;
    rounds.push({
      round,
      clean: !targetRun.noisy && !referenceRun.noisy,
      throughputRatio: ratio(targetRun.rps, referenceRun.rps),
      addedP50Us: delta(targetRun.latencyUs?.p50, referenceRun.latencyUs?.p50),
      addedP90Us: delta(targetRun.latencyUs?.p90, referenceRun.latencyUs?.p90),
      addedP99Us: delta(targetRun.latencyUs?.p99, referenceRun.latencyUs?.p99),
    });
  }
  if (rounds.length === 0) return null;
  const clean = rounds.filter((round) => round.clean);
  const used = clean.length > 0 ? clean : rounds;
  const medianOf = (field) => median(used.map((round) => round[field]));
  return {
    rounds,
    roundsUsed: used.length,
    noisy: clean.length === 0,
    throughputRatio: medianOf('throughputRatio'),
    addedP50Us: medianOf('addedP50Us'),
    addedP90Us: medianOf('addedP90Us'),
    addedP99Us: medianOf('addedP99Us'),
  };
}

/** Round order for interleaving: forward in odd rounds, backward in even ones (A B C, C B A, …). */
export function orderForRound(items, round) {
  return round % 2 === 1 ? [...items] : [...items].reverse();
}
