import type { Pixels } from '../capability/image-adapter';

/**
 * The aspect ratios offered by the families that turn a ratio into pixels (`eta-iota-*`,
 * `zeta-4-2-image`) and the size each is sent as. The interface spec gives 16:9 → 2560x1440,
 * 9:16 → 1440x2560 and 1:1 → 2048x2048 "and so on" for both; the one rule that gives all three is
 * the largest size of exactly that ratio whose sides are multiples of 16 and whose area is at most
 * 2048x2048 (4,194,304 pixels). A long side of 2560, the other candidate, would make 1:1 2560x2560.
 *
 * | ratio | size      | pixels    |
 * |-------|-----------|-----------|
 * | 1:1   | 2048x2048 | 4,194,304 |
 * | 16:9  | 2560x1440 | 3,686,400 |
 * | 9:16  | 1440x2560 | 3,686,400 |
 * | 4:3   | 2304x1728 | 3,981,312 |
 * | 3:4   | 1728x2304 | 3,981,312 |
 * | 3:2   | 2496x1664 | 4,153,344 |
 * | 2:3   | 1664x2496 | 4,153,344 |
 * | 21:9  | 3024x1296 | 3,919,104 |
 */
export const ASPECT_RATIO_SIZES: Readonly<Record<string, Pixels>> = {
  '1:1': { width: 2048, height: 2048 },
  '16:9': { width: 2560, height: 1440 },
  '9:16': { width: 1440, height: 2560 },
  '4:3': { width: 2304, height: 1728 },
  '3:4': { width: 1728, height: 2304 },
  '3:2': { width: 2496, height: 1664 },
  '2:3': { width: 1664, height: 2496 },
  '21:9': { width: 3024, height: 1296 },
};

/** The offered ratios, in the table's order, for refusal messages. */
export const ASPECT_RATIOS: readonly string[] = Object.keys(ASPECT_RATIO_SIZES);

/** The size an offered ratio (`16:9`) is sent as; undefined for a ratio not offered or any other text. */
export function aspectRatioSizeOf(ratio: string): Pixels | undefined {
  return Object.hasOwn(ASPECT_RATIO_SIZES, ratio) ? ASPECT_RATIO_SIZES[ratio] : undefined;
}
