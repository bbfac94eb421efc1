import { secondsParamOf, videoRefusal, type VideoRefusal, type VideoRequest } from '@gateway/providers-core';
import type { CompatVideoFamily } from './compat-video-families';

export type VideoSecondsDecision = { ok: true; seconds: number; warnings: string[] } | VideoRefusal;

/**
 * The seconds asked and held for (upstreams.md §2.4): the family's list and default; `epsilon_*`
 * needs 8 at 1080p/4K, with reference images and when extending (8 is then also the default);
 * `zeta-video-3-pro`/`-max` always make 10/15 s, billed so, and a client that asked otherwise is told;
 * open families take any whole number of seconds (the interface's default 5).
 */
export function decideVideoSeconds(
  request: VideoRequest,
  family: CompatVideoFamily,
  tier: string | null,
  referenceMode: boolean,
): VideoSecondsDecision {
  const model = request.model;
  const param = secondsParamOf(request);
  const asked = request.seconds;
  if (family.fixedSeconds !== undefined) {
    const fixed = family.fixedSeconds;
    const warnings =
      asked !== undefined && asked !== fixed
        ? [
            `${model} always makes ${fixed}-second videos: ${param} ${asked} was replaced by ${fixed} (billed for ${fixed} s)`,
          ]
        : [];
    return { ok: true, seconds: fixed, warnings };
  }
  if (family.seconds === 'any') {
    const seconds = asked ?? family.defaultSeconds;
    return Number.isInteger(seconds) && seconds > 0
      ? { ok: true, seconds, warnings: [] }
      : videoRefusal(param, `${param} must be a positive whole number of seconds for ${model}`);
  }
  const eightReason = eightSecondsReason(family, tier, referenceMode);
  if (eightReason) {
    if (asked === undefined || asked === 8) return { ok: true, seconds: 8, warnings: [] };
    return videoRefusal(param, `${param} must be 8 for ${model} ${eightReason}`);
  }
  const seconds = asked ?? family.defaultSeconds;
  if (family.seconds.includes(seconds)) return { ok: true, seconds, warnings: [] };
  return videoRefusal(param, `${param} must be one of ${family.seconds.join(', ')} for ${model}`);
}

function eightSecondsReason(
  family: CompatVideoFamily,
  tier: string | null,
  referenceMode: boolean,
): string | undefined {
  const rule = family.eightSecondsAt;
  if (!rule) return undefined;
  if (rule.always) return '(an extension is 8 seconds)';
  if (tier !== null && rule.tiers.includes(tier)) return `at ${tier}`;
  return rule.withImages && referenceMode ? 'with reference images' : undefined;
}
