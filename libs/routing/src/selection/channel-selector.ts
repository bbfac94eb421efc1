/** What ordering needs to know of a candidate. */
export interface WeightedCandidate {
  readonly priority: number;
  readonly weight: number;
}

// perf-machinery: order-candidates (docs/performance-machinery.md)
/**
 * The order in which to try candidates: highest priority first; within one priority a weighted random
 * order (sampling without replacement), so traffic splits by weight and failover still reaches every
 * candidate. Candidates with weight 0 or less come last in their priority, in random order.
 * Pure: `random` returns a number in [0, 1), as Math.random does.
 */
export function orderCandidates<T extends WeightedCandidate>(
  candidates: readonly T[],
  random: () => number = Math.random,
): T[] {
  const ordered = [...candidates];
  if (ordered.length <= 1) return ordered;
  // Sorted by priority (an insertion sort: the lists are short, and it allocates nothing), then each
  // run of one priority shuffled in place, on a path every request takes.
  for (let index = 1; index < ordered.length; index += 1) {
    const moving = ordered[index];
    let slot = index;
    while (slot > 0 && ordered[slot - 1].priority < moving.priority) {
      ordered[slot] = ordered[slot - 1];
      slot -= 1;
    }
    ordered[slot] = moving;
  }
  for (let start = 0; start < ordered.length;) {
    let end = start + 1;
    while (end < ordered.length && ordered[end].priority === ordered[start].priority) end += 1;
    for (let slot = start; slot < end - 1; slot += 1) {
      const picked = pickIndex(ordered, slot, end, random);
      const displaced = ordered[slot];
      ordered[slot] = ordered[picked];
      ordered[picked] = displaced;
    }
    start = end;
  }
  return ordered;
}

/** Draws one index of `[from, to)` in proportion to the weights there; uniformly when none is positive. */
function pickIndex(
  candidates: readonly WeightedCandidate[],
  from: number,
  to: number,
  random: () => number,
): number {
  let totalWeight = 0;
  for (let index = from; index < to; index += 1) totalWeight += Math.max(0, candidates[index].weight);
  if (totalWeight <= 0) return from + Math.floor(random() * (to - from));
  let threshold = random() * totalWeight;
  let lastPositive = from;
  for (let index = from; index < to; index += 1) {
    const weight = Math.max(0, candidates[index].weight);
    if (weight > 0) lastPositive = index;
    if (threshold < weight) return index;
    threshold -= weight;
  }
  // Floating-point rounding can leave the threshold a hair above the last weight.
  return lastPositive;
}
