/**
 * mulberry32: a small PRNG whose whole sequence follows from a 32-bit seed, for tests that draw at
 * random but must be replayable (a fuzz sample, statistics over many draws). Written here: the test
 * kit needs nine lines, not a dependency.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
  };
}
