import { isJsonObject, videoRefusal, type VideoRefusal, type VideoRequest } from '@gateway/providers-core';
import {
  tierOfOpenSize,
  type CompatVideoFamily,
  type CompatVideoSize,
  type VideoOrientation,
} from './compat-video-families';

/** The size the wire gets, the price tier of a second, and the aspect ratio sent (zeta and open only). */
export interface VideoFrame {
  size: string | null;
  tier: string | null;
  aspectRatio: string | null;
}

export type VideoFrameDecision = ({ ok: true; warnings: string[] } & VideoFrame) | VideoRefusal;

const PIXELS = /^(\d{2,5})x(\d{2,5})$/i;
const ORIENTATION_OF_RATIO: Readonly<Record<string, VideoOrientation>> = {
  '16:9': 'landscape',
  '9:16': 'portrait',
};
/** Only the relay's unified JSON route takes these for zeta (upstreams.md §2.4); this wire does not. */
const ZETA_UNIFIED_ONLY_RATIOS = new Set(['16:9', '9:16']);

/** Which field the resolution came from, for the refusal (precedence: output_config.resolution, else size). */
export function resolutionParamOf(request: VideoRequest): string {
  const outputConfig = request.metadata?.output_config;
  return isJsonObject(outputConfig) && outputConfig.resolution !== undefined
    ? 'metadata.output_config.resolution'
    : 'size';
}

/**
 * The frame by family. `delta-*`/`epsilon_*` take a closed list of `WxH`; a resolution word (`720p`,
 * `1080P`, `4K`) picks the size of that tier in the orientation `aspect_ratio` (16:9 or 9:16, their
 * wire has no ratio field) or the default gives; reference mode on epsilon is steered to landscape.
 * `zeta-video-*` take `720P`/`1080P` and `2:3`, `3:2`, `1:1` (a `WxH` at those ratios is read as
 * both). Open families pass the client's size and ratio on.
 */
export function decideVideoFrame(
  request: VideoRequest,
  family: CompatVideoFamily,
  referenceMode: boolean,
): VideoFrameDecision {
  if (family.sizes === 'any') {
    return {
      ok: true,
      size: request.size ?? null,
      tier: tierOfOpenSize(request.resolution),
      aspectRatio: request.aspectRatio ?? null,
      warnings: [],
    };
  }
  return family.kind === 'zeta'
    ? zetaFrame(request, family, family.sizes)
    : listedFrame(request, family, family.sizes, referenceMode);
}

function listedFrame(
  request: VideoRequest,
  family: CompatVideoFamily,
  sizes: readonly CompatVideoSize[],
  referenceMode: boolean,
): VideoFrameDecision {
  const model = request.model;
  const warnings: string[] = [];
  const ratio = request.aspectRatio;
  const ratioOrientation = ratio === undefined ? undefined : ORIENTATION_OF_RATIO[ratio];
  if (ratio !== undefined && !ratioOrientation) {
    return videoRefusal(
      'aspect_ratio',
      `aspect_ratio must be 16:9 or 9:16 for ${model}: its wire has no aspect ratio, the size's orientation decides`,
    );
  }
  const chosen = chosenListedSize(request, family, sizes, ratioOrientation, warnings);
  if ('ok' in chosen) return chosen;
  let size = chosen;
  if (referenceMode && family.kind === 'epsilon' && size.orientation === 'portrait') {
    const landscape = sizes.find((entry) => entry.tier === size.tier && entry.orientation === 'landscape');
    if (landscape) {
      warnings.push(
        `${model} makes reference-image videos in landscape: size ${size.wire} was steered to ${landscape.wire}`,
      );
      size = landscape;
    }
  }
  return { ok: true, size: size.wire, tier: size.tier, aspectRatio: null, warnings };
}

function chosenListedSize(
  request: VideoRequest,
  family: CompatVideoFamily,
  sizes: readonly CompatVideoSize[],
  ratioOrientation: VideoOrientation | undefined,
  warnings: string[],
): CompatVideoSize | VideoRefusal {
  const model = request.model;
  const param = resolutionParamOf(request);
  const value = request.resolution?.trim();
  const listed = sizes.map((entry) => entry.wire).join(', ');
  const fallback = sizes.find((entry) => entry.wire === family.defaultSize) ?? sizes[0];
  if (value === undefined) {
    const oriented = ratioOrientation
      ? sizes.find((entry) => entry.tier === fallback.tier && entry.orientation === ratioOrientation)
      : undefined;
    return oriented ?? fallback;
  }
  if (PIXELS.test(value)) {
    const exact = sizes.find((entry) => entry.wire.toLowerCase() === value.toLowerCase());
    if (!exact) return videoRefusal(param, `${param} must be one of ${listed} for ${model}`);
    if (ratioOrientation && exact.orientation !== ratioOrientation) {
      warnings.push(`aspect_ratio was ignored: size ${exact.wire} decides the frame of ${model}`);
    }
    return exact;
  }
  const tier = tierOfWord(value);
  const ofTier = sizes.filter((entry) => entry.tier === tier);
  if (ofTier.length === 0) {
    const tiers = [...new Set(sizes.map((entry) => entry.tier))].join(', ');
    return videoRefusal(param, `${param} must be one of ${listed} (or ${tiers}) for ${model}`);
  }
  const orientation = ratioOrientation ?? fallback.orientation;
  const oriented = ofTier.find((entry) => entry.orientation === orientation);
  if (oriented) return oriented;
  if (ratioOrientation) {
    return videoRefusal(
      'aspect_ratio',
      `${model} makes ${tier} videos in ${ofTier.map((entry) => entry.wire).join(', ')} only; aspect_ratio ${request.aspectRatio} is not available at ${tier}`,
    );
  }
  return ofTier[0];
}

function zetaFrame(
  request: VideoRequest,
  family: CompatVideoFamily,
  sizes: readonly CompatVideoSize[],
): VideoFrameDecision {
  const model = request.model;
  const ratios = family.aspectRatios ?? [];
  const ratio = request.aspectRatio;
  if (ratio !== undefined && !ratios.includes(ratio)) {
    const why = ZETA_UNIFIED_ONLY_RATIOS.has(ratio)
      ? `${ratio} exists only on the relay's unified JSON route, which this channel type does not call; `
      : '';
    return videoRefusal('aspect_ratio', `aspect_ratio: ${why}${model} takes ${ratios.join(', ')}`);
  }
  const param = resolutionParamOf(request);
  const allowed = `${sizes.map((entry) => entry.wire).join(' or ')} (or WxH of 720 or 1080 on the short side at ${ratios.join(', ')})`;
  const value = request.resolution?.trim();
  if (value === undefined) {
    const fallback = sizes.find((entry) => entry.wire === family.defaultSize) ?? sizes[0];
    return { ok: true, size: fallback.wire, tier: fallback.tier, aspectRatio: ratio ?? null, warnings: [] };
  }
  const pixels = PIXELS.exec(value);
  if (!pixels) {
    const entry = sizes.find((candidate) => candidate.tier === tierOfWord(value));
    if (!entry) return videoRefusal(param, `${param} must be ${allowed} for ${model}`);
    return { ok: true, size: entry.wire, tier: entry.tier, aspectRatio: ratio ?? null, warnings: [] };
  }
  const width = Number(pixels[1]);
  const height = Number(pixels[2]);
  const entry = sizes.find((candidate) => candidate.tier === tierOfShortSide(Math.min(width, height)));
  const derived = reducedRatio(width, height);
  if (!entry || !ratios.includes(derived)) {
    return videoRefusal(
      param,
      `${param} must be ${allowed} for ${model}; ${value} cannot be expressed on its wire`,
    );
  }
  const warnings =
    ratio !== undefined && ratio !== derived
      ? [`size ${value} is ${derived}; aspect_ratio ${ratio} was sent as asked`]
      : [];
  return { ok: true, size: entry.wire, tier: entry.tier, aspectRatio: ratio ?? derived, warnings };
}

/** `720P` → `720p`, `2160p` and `4K` → `4k`. */
function tierOfWord(value: string): string {
  const lower = value.toLowerCase();
  return lower === '2160p' ? '4k' : lower;
}

/** Zeta's sizes by their short side: exactly 720 or 1080. */
function tierOfShortSide(side: number): string | undefined {
  if (side === 720) return '720p';
  return side === 1080 ? '1080p' : undefined;
}

function reducedRatio(width: number, height: number): string {
  const divisor = greatestCommonDivisor(width, height);
  return `${width / divisor}:${height / divisor}`;
}

function greatestCommonDivisor(a: number, b: number): number {
  return b === 0 ? a : greatestCommonDivisor(b, a % b);
}
