import type { VideoMode, VideoRequest } from '@gateway/providers-core';
import { ALPHA_RESOLUTIONS, type AlphaModelRules, type AlphaResolution } from './alpha-models';
import { alphaRefusal, type AlphaRuled } from './alpha-refusal';

export interface AlphaOutput {
  seconds: number;
  resolution: AlphaResolution;
  /** Null where the client gave none (the wire's default, 16:9) or the mode has no such field. */
  aspectRatio: string | null;
}

/** `1280x720`, `720*1280`: an OpenAI-style `size`, which names the resolution by its shorter side. */
const PIXEL_SIZE = /^(\d{1,5})\s*[x*×]\s*(\d{1,5})$/i;
/** `aspect_ratio` is a field of text2video and reference2video only (§3.3). */
const MODES_WITH_ASPECT_RATIO: ReadonlySet<VideoMode> = new Set(['text', 'reference']);

/** Duration, resolution and aspect ratio by the model's rules (§3.3); warnings for what is dropped. */
export function alphaOutputOf(
  request: VideoRequest,
  rules: AlphaModelRules,
  mode: VideoMode,
  warnings: string[],
): AlphaRuled<AlphaOutput> {
  const seconds = secondsOf(request.seconds, rules);
  if (!seconds.ok) return seconds;
  const tier = resolutionOf(request, rules);
  if (!tier.ok) return tier;
  const ratio = aspectRatioOf(request, tier.value.ratioOfSize, rules);
  if (!ratio.ok) return ratio;
  let aspectRatio = ratio.value;
  if (aspectRatio !== null && !MODES_WITH_ASPECT_RATIO.has(mode)) {
    warnings.push(`aspect_ratio is ignored: ${rules.name} takes the frame of the input image`);
    aspectRatio = null;
  }
  return { ok: true, value: { seconds: seconds.value, resolution: tier.value.resolution, aspectRatio } };
}

function secondsOf(seconds: unknown, rules: AlphaModelRules): AlphaRuled<number> {
  const { min, max } = rules.duration;
  if (seconds === undefined) return { ok: true, value: rules.duration.default };
  if (typeof seconds === 'number' && Number.isInteger(seconds) && seconds >= min && seconds <= max) {
    return { ok: true, value: seconds };
  }
  const allowed = min === max ? `${min}` : `a whole number from ${min} to ${max}`;
  return alphaRefusal('duration', `duration must be ${allowed} seconds for ${rules.name}`);
}

interface ResolutionChoice {
  resolution: AlphaResolution;
  /** The ratio a `WIDTHxHEIGHT` size implies, when the resolution came from one. */
  ratioOfSize?: string;
}

/**
 * The resolution by precedence (already applied by the gateway), else a combined billing name's
 * `resolution` dimension, else the model's default. `720P` is read as `720p`; a pixel size gives
 * the tier of its shorter side and the ratio of its sides.
 */
function resolutionOf(request: VideoRequest, rules: AlphaModelRules): AlphaRuled<ResolutionChoice> {
  const allowed = `resolution must be one of ${rules.resolutions.join(', ')} for ${rules.name}`;
  const asked = request.resolution ?? request.dimensions['resolution'];
  if (asked === undefined) return { ok: true, value: { resolution: rules.defaultResolution } };
  const param =
    request.resolution !== undefined && request.resolution === request.size ? 'size' : 'resolution';
  if (typeof asked !== 'string') return alphaRefusal(param, allowed);
  const pixels = PIXEL_SIZE.exec(asked.trim());
  const choice: ResolutionChoice | undefined = pixels
    ? tierOfPixels(Number(pixels[1]), Number(pixels[2]))
    : isAlphaResolution(asked.trim().toLowerCase())
      ? { resolution: asked.trim().toLowerCase() as AlphaResolution }
      : undefined;
  if (!choice || !rules.resolutions.includes(choice.resolution)) {
    const sizes = pixels ? ' (a size names its resolution by its shorter side: 540, 720 or 1080)' : '';
    return alphaRefusal(param, `${allowed}${sizes}`);
  }
  const fixed = request.dimensions['resolution'];
  if (fixed !== undefined && fixed.toLowerCase() !== choice.resolution) {
    return alphaRefusal(param, `resolution must be ${fixed}: the model name fixes it`);
  }
  return { ok: true, value: choice };
}

function tierOfPixels(width: number, height: number): ResolutionChoice | undefined {
  const resolution = `${Math.min(width, height)}p`;
  if (!isAlphaResolution(resolution)) return undefined;
  return { resolution, ratioOfSize: reducedRatio(width, height) };
}

function aspectRatioOf(
  request: VideoRequest,
  ratioOfSize: string | undefined,
  rules: AlphaModelRules,
): AlphaRuled<string | null> {
  const asked: unknown = request.aspectRatio;
  if (asked === undefined) {
    if (ratioOfSize === undefined || rules.ratios.includes(ratioOfSize)) {
      return { ok: true, value: ratioOfSize ?? null };
    }
    return alphaRefusal(
      'size',
      `size must have an aspect ratio of ${rules.ratios.join(', ')} for ${rules.name}`,
    );
  }
  if (typeof asked !== 'string' || !rules.ratios.includes(asked)) {
    return alphaRefusal(
      'aspect_ratio',
      `aspect_ratio must be one of ${rules.ratios.join(', ')} for ${rules.name}`,
    );
  }
  if (ratioOfSize !== undefined && ratioOfSize !== asked) {
    return alphaRefusal('size', `size has the aspect ratio ${ratioOfSize}, not the aspect_ratio ${asked}`);
  }
  return { ok: true, value: asked };
}

function isAlphaResolution(value: string): value is AlphaResolution {
  return (ALPHA_RESOLUTIONS as readonly string[]).includes(value);
}

function reducedRatio(width: number, height: number): string {
  const divisor = greatestCommonDivisor(width, height);
  return `${width / divisor}:${height / divisor}`;
}

function greatestCommonDivisor(a: number, b: number): number {
  return b === 0 ? a : greatestCommonDivisor(b, a % b);
}
