/** What ordering needs to know of a candidate. */
export interface WeightedCandidate {
  readonly priority: number;
  readonly weight: number;
}

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
  // Most models have one channel: no grouping or sampling to do (and nothing to allocate per request).
  if (candidates.length <= 1) return [...candidates];
  const byPriority = new Map<number, T[]>();
  for (const candidate of candidates) {
    const group = byPriority.get(candidate.priority) ?? [];
    group.push(candidate);
    byPriority.set(candidate.priority, group);
  }
  return [...byPriority.keys()]
    .sort((a, b) => b - a)
    .flatMap((priority) => weightedRandomOrder(byPriority.get(priority) ?? [], random));
}

function weightedRandomOrder<T extends WeightedCandidate>(group: readonly T[], random: () => number): T[] {
  const remaining = [...group];
  const ordered: T[] = [];
  while (remaining.length > 0) {
    const index = pickIndex(remaining, random);
    ordered.push(remaining[index]);
    remaining.splice(index, 1);
  }
  return ordered;
}

function pickIndex(remaining: readonly WeightedCandidate[], random: () => number): number {
  const totalWeight = remaining.reduce((sum, candidate) => sum + Math.max(0, candidate.weight), 0);
  if (totalWeight <= 0) return Math.floor(random() * remaining.length);
  let threshold = random() * totalWeight;
  for (let index = 0; index < remaining.length; index += 1) {
    const weight = Math.max(0, remaining[index].weight);
    if (threshold < weight) return index;
    threshold -= weight;
  }
  // Floating-point rounding can leave the threshold a hair above the last weight.
  return remaining.findLastIndex((candidate) => candidate.weight > 0);
}
