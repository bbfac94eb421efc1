import type { Pixels } from '@gateway/providers-core';

/** Size presets by name (`16:9`, `4:3(4K)` …) with the target each stands for. */
export type ImageSizePresets = Readonly<Record<string, Pixels & { ratio: string }>>;

const preset = (ratio: string, width: number, height: number) => ({ ratio, width, height });

/** The `img-2` presets of the interface spec. */
export const IMG_2_PRESETS: ImageSizePresets = {
  '1:1': preset('1:1', 1024, 1024),
  '4:3': preset('4:3', 1536, 1152),
  '3:2': preset('3:2', 1536, 1024),
  '2:3': preset('2:3', 1024, 1536),
  '16:9': preset('16:9', 1920, 1080),
  '9:16': preset('9:16', 1080, 1920),
};

/** `img-2-pro` takes the `img-2` presets and their (2K) and (4K) variants of the interface spec. */
export const IMG_2_PRO_PRESETS: ImageSizePresets = {
  ...IMG_2_PRESETS,
  '1:1(2K)': preset('1:1', 2048, 2048),
  '4:3(2K)': preset('4:3', 2048, 1536),
  '3:2(2K)': preset('3:2', 2560, 1712),
  '2:3(2K)': preset('2:3', 1712, 2560),
  '16:9(2K)': preset('16:9', 2048, 1152),
  '9:16(2K)': preset('9:16', 1152, 2048),
  '1:1(4K)': preset('1:1', 2880, 2880),
  '4:3(4K)': preset('4:3', 3840, 2880),
  '3:2(4K)': preset('3:2', 3840, 2560),
  '2:3(4K)': preset('2:3', 2560, 3840),
  '16:9(4K)': preset('16:9', 3840, 2160),
  '9:16(4K)': preset('9:16', 2160, 3840),
};

/** The `img-2` size rule of upstreams.md §2.3. */
const SIDE_MULTIPLE = 16;
const LONG_SIDE_MAX = 3840;
const RATIO_MAX = 3;
const AREA_MIN = 655_360;
const AREA_MAX = 8_294_400;

/** Both sides multiples of 16, long side ≤ 3840, long:short ≤ 3:1, 655 360 ≤ W·H ≤ 8 294 400. */
export function isImg2NativeSize({ width, height }: Pixels): boolean {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  const area = width * height;
  return (
    short >= SIDE_MULTIPLE &&
    width % SIDE_MULTIPLE === 0 &&
    height % SIDE_MULTIPLE === 0 &&
    long <= LONG_SIDE_MAX &&
    long <= short * RATIO_MAX &&
    area >= AREA_MIN &&
    area <= AREA_MAX
  );
}

/** The target with its long:short ratio clamped to 3:1 (the long side shortened), which the rule allows. */
function clampedToRatioMax({ width, height }: Pixels): Pixels {
  return { width: Math.min(width, height * RATIO_MAX), height: Math.min(height, width * RATIO_MAX) };
}

/**
 * The box a fallback size must fit in: the (ratio-clamped) target scaled down into the area and
 * long-side caps, or up to the minimum area, each side rounded up to a multiple of 16 so that a
 * target at the minimum area still has a valid size inside.
 */
function fallbackBoxOf({ width, height }: Pixels): Pixels {
  const area = width * height;
  let scale = Math.min(1, Math.sqrt(AREA_MAX / area), LONG_SIDE_MAX / Math.max(width, height));
  if (area * scale * scale < AREA_MIN) scale = Math.sqrt(AREA_MIN / area);
  const roundUp = (side: number) => Math.ceil((side * scale) / SIDE_MULTIPLE) * SIDE_MULTIPLE;
  return { width: roundUp(width), height: roundUp(height) };
}

/** Ratio errors this close are equal: exact matches computed from different sides differ by rounding. */
const RATIO_TIE = 1e-12;

/**
 * The size sent for a target the `img-2` rule refuses: among the valid sizes that fit in the target's
 * box (see fallbackBoxOf), the one whose width:height is nearest the target's (distance of the
 * logarithms, so 16:9 and 9:16 are treated alike), and among equally near ones the largest. So
 * 1920x1080 → 1792x1008 (exactly 16:9), 3840x2880 → 3264x2448 (exactly 4:3, under the area cap).
 * Only widths are enumerated; for each, the two multiples of 16 around the ideal height (at most the
 * box's) compete.
 * Returns undefined only for a target with a zero side.
 */
export function closestImg2Size(target: Pixels): Pixels | undefined {
  if (target.width <= 0 || target.height <= 0) return undefined;
  const clamped = clampedToRatioMax(target);
  const box = fallbackBoxOf(clamped);
  const targetLogRatio = Math.log(clamped.width / clamped.height);
  let best: Pixels | undefined;
  let bestError = Infinity;
  for (let width = SIDE_MULTIPLE; width <= box.width; width += SIDE_MULTIPLE) {
    const below = Math.floor((width * clamped.height) / clamped.width / SIDE_MULTIPLE) * SIDE_MULTIPLE;
    for (const height of [below, below + SIDE_MULTIPLE].map((side) => Math.min(side, box.height))) {
      if (!isImg2NativeSize({ width, height })) continue;
      const error = Math.abs(Math.log(width / height) - targetLogRatio);
      const larger = best === undefined || width * height > best.width * best.height;
      if (error < bestError - RATIO_TIE || (error <= bestError + RATIO_TIE && larger)) {
        best = { width, height };
        bestError = Math.min(error, bestError);
      }
    }
  }
  return best;
}
