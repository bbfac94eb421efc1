import {
  aspectRatioSizeOf,
  ASPECT_RATIOS,
  type ImageRequest,
  type ImageSize,
  type Pixels,
} from '@gateway/providers-core';
import type { CompatImageFamily, CompatSizeRule } from './compat-image-families';
import { refusal, type CompatImageRefusal } from './compat-image-refusal';
import { closestImg2Size, isImg2NativeSize, type ImageSizePresets } from './img-2-size.util';

/** The size sent, the note the prompt gets when the size had to fall back, and what to tell the client. */
export type CompatSizeDecision =
  { ok: true; size?: ImageSize; promptNote?: string; warnings: string[] } | CompatImageRefusal;

const SIZE_PATTERN = /^(\d{1,5})x(\d{1,5})$/;
const RATIO_PATTERN = /^\d+:\d+$/;
const AUTO = 'auto';

export function pixelsOf(text: string): Pixels | undefined {
  const match = SIZE_PATTERN.exec(text);
  return match ? { width: Number(match[1]), height: Number(match[2]) } : undefined;
}

const pixelSize = ({ width, height }: Pixels): ImageSize => ({ kind: 'pixels', width, height });

/** A `size` of a model without rules, as sent: pixels when it reads as pixels, else the wire's own word. */
export function sizeAsSent(size: string | undefined): ImageSize | undefined {
  if (size === undefined) return undefined;
  const pixels = pixelsOf(size);
  return pixels ? pixelSize(pixels) : { kind: 'tier', tier: size };
}

/** Resolves the client's `size` (and `ratio`, for the family that maps ratios) by the family's rule. */
export function decideCompatSize(request: ImageRequest, family: CompatImageFamily): CompatSizeDecision {
  const rule: CompatSizeRule = family.size;
  if (rule.kind === 'ratio') return ratioSize(request, family.name);
  const decision =
    rule.kind === 'list'
      ? listSize(request.size ?? rule.defaultSize, rule.sizes, family.name)
      : img2Size(request.size, rule.presets, family.name);
  if (decision.ok && request.ratio !== undefined) {
    decision.warnings.push(`ratio is not a field of ${family.name} and was dropped; size sets the shape`);
  }
  return decision;
}

function listSize(size: string | undefined, sizes: readonly string[], family: string): CompatSizeDecision {
  if (size === undefined) return { ok: true, warnings: [] };
  if (!sizes.includes(size)) {
    return refusal('size', `size must be one of ${sizes.join(', ')} for ${family}`);
  }
  return { ok: true, size: sizeAsSent(size), warnings: [] };
}

/** `4:3 (4k)` reads as the preset `4:3(4K)`. */
const presetKeyOf = (size: string): string => size.replace(/\s+/g, '').toUpperCase();

/**
 * `auto`, a preset or `WxH`. A target the `img-2` rule refuses (a preset the upstream does not make,
 * or pixels off the rule) is sent as the closest valid size and the prompt asks for the target's
 * aspect ratio, as the interface spec requires.
 */
function img2Size(size: string | undefined, presets: ImageSizePresets, family: string): CompatSizeDecision {
  if (size === undefined) return { ok: true, warnings: [] };
  if (size === AUTO) return { ok: true, size: { kind: 'tier', tier: AUTO }, warnings: [] };
  const preset = Object.hasOwn(presets, presetKeyOf(size)) ? presets[presetKeyOf(size)] : undefined;
  const target = preset ?? pixelsOf(size);
  const sent = target && (isImg2NativeSize(target) ? target : closestImg2Size(target));
  if (!target || !sent) {
    return refusal(
      'size',
      `size must be auto, WIDTHxHEIGHT or one of ${Object.keys(presets).join(', ')} for ${family}`,
    );
  }
  if (sent === target) return { ok: true, size: pixelSize(sent), warnings: [] };
  const ratio = preset?.ratio ?? reducedRatioOf(target);
  const asked = preset ? `${size} (${target.width}x${target.height})` : size;
  return {
    ok: true,
    size: pixelSize(sent),
    promptNote: ` (aspect ratio ${ratio})`,
    warnings: [
      `size ${asked} is not a native ${family} size: sent ${sent.width}x${sent.height} and asked for aspect ratio ${ratio} in the prompt`,
    ],
  };
}

function reducedRatioOf({ width, height }: Pixels): string {
  const greatestCommonDivisor = (a: number, b: number): number =>
    b === 0 ? a : greatestCommonDivisor(b, a % b);
  const divisor = greatestCommonDivisor(width, height);
  return `${width / divisor}:${height / divisor}`;
}

/**
 * `zeta-4-2-image`: a ratio (in `ratio`, or written as `size`) becomes the pixels of ASPECT_RATIO_SIZES;
 * other sizes are the relay's own and pass as sent.
 */
function ratioSize(request: ImageRequest, family: string): CompatSizeDecision {
  const sizeIsRatio = request.size !== undefined && RATIO_PATTERN.test(request.size);
  const ratio = request.ratio ?? (sizeIsRatio ? request.size : undefined);
  if (ratio === undefined) return { ok: true, size: sizeAsSent(request.size), warnings: [] };
  const size = aspectRatioSizeOf(ratio);
  if (!size) {
    const param = request.ratio !== undefined ? 'ratio' : 'size';
    return refusal(param, `${param} must be one of ${ASPECT_RATIOS.join(', ')} for ${family}`);
  }
  const warnings =
    request.ratio !== undefined && request.size !== undefined
      ? [`size ${request.size} was dropped: ratio ${ratio} sets the size`]
      : [];
  return { ok: true, size: pixelSize(size), warnings };
}
