import { seededRandom } from '@gateway/testing';
import { orderCandidates } from './channel-selector';

const candidate = (id: string, priority: number, weight: number) => ({ id, priority, weight });

function countPositions(
  candidates: ReturnType<typeof candidate>[],
  draws: number,
  position: number,
): Map<string, number> {
  const random = seededRandom(42);
  const counts = new Map<string, number>();
  for (let draw = 0; draw < draws; draw += 1) {
    const id = orderCandidates(candidates, random)[position].id;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

describe('orderCandidates', () => {
  it('puts every higher priority before any lower one, in every draw', () => {
    const candidates = [
      candidate('low', 1, 100),
      candidate('high-a', 5, 1),
      candidate('mid', 3, 50),
      candidate('high-b', 5, 1),
    ];
    const random = seededRandom(7);

    for (let draw = 0; draw < 10_000; draw += 1) {
      const priorities = orderCandidates(candidates, random).map((c) => c.priority);
      expect(priorities).toEqual([5, 5, 3, 1]);
    }
  });

  it('picks the first candidate of a priority in proportion to its weight', () => {
    const counts = countPositions(
      [candidate('a', 0, 1), candidate('b', 0, 3), candidate('c', 0, 6)],
      10_000,
      0,
    );

    expect(Math.abs((counts.get('a') ?? 0) / 10_000 - 0.1)).toBeLessThan(0.015);
    expect(Math.abs((counts.get('b') ?? 0) / 10_000 - 0.3)).toBeLessThan(0.015);
    expect(Math.abs((counts.get('c') ?? 0) / 10_000 - 0.6)).toBeLessThan(0.015);
  });

  it('samples without replacement: the second place follows the remaining weights', () => {
    // P(a second) = P(b first)·1/7 + P(c first)·1/4 = 0.3/7 + 0.6/4 ≈ 0.193
    const counts = countPositions(
      [candidate('a', 0, 1), candidate('b', 0, 3), candidate('c', 0, 6)],
      10_000,
      1,
    );

    expect(Math.abs((counts.get('a') ?? 0) / 10_000 - 0.193)).toBeLessThan(0.015);
  });

  it('returns every candidate exactly once', () => {
    const candidates = [
      candidate('a', 2, 1),
      candidate('b', 1, 1),
      candidate('c', 2, 0),
      candidate('d', 1, 9),
    ];

    const ordered = orderCandidates(candidates, seededRandom(1));

    expect(ordered.map((c) => c.id).sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('puts weight-zero candidates after the weighted ones of their priority', () => {
    const candidates = [candidate('zero', 0, 0), candidate('one', 0, 1), candidate('two', 0, 2)];
    const random = seededRandom(3);

    for (let draw = 0; draw < 1000; draw += 1) {
      expect(orderCandidates(candidates, random)[2].id).toBe('zero');
    }
  });

  it('orders candidates that all weigh zero uniformly', () => {
    const counts = countPositions([candidate('a', 0, 0), candidate('b', 0, 0)], 10_000, 0);

    expect(Math.abs((counts.get('a') ?? 0) / 10_000 - 0.5)).toBeLessThan(0.02);
  });

  it('copes with a random source returning its largest value', () => {
    const ordered = orderCandidates([candidate('a', 0, 1), candidate('b', 0, 2)], () => 0.9999999999999999);

    expect(ordered.map((c) => c.id)).toEqual(['b', 'a']);
  });

  it('returns an empty order for no candidates without touching the input', () => {
    const candidates = Object.freeze([candidate('a', 0, 1)]);

    expect(orderCandidates([])).toEqual([]);
    expect(orderCandidates(candidates)).toHaveLength(1);
  });

  it('returns a lone candidate, whatever its weight, in an array of its own', () => {
    for (const lone of [Object.freeze([candidate('a', 5, 3)]), Object.freeze([candidate('b', 0, 0)])]) {
      const order = orderCandidates(lone, () => 0.99);

      expect(order).toEqual([lone[0]]);
      expect(order).not.toBe(lone);
    }
  });
});
