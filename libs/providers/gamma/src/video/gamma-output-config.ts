import {
  videoRefusal,
  type JsonValue,
  type SerialisableObject,
  type VideoRequest,
  type VideoRuled,
} from '@gateway/providers-core';
import { GAMMA_RESOLUTIONS, type GammaDimensions, type GammaResolution } from './gamma-dimensions';
import { GAMMA_DEFAULT_SECONDS, gammaSecondsAllowed, type GammaModel } from './gamma-models';
import { listed, metadataField, oneOf, outputConfigOf, resolved, wireKeyOf } from './gamma-plan.util';

export const GAMMA_ASPECT_RATIOS = ['16:9', '9:16', '1:1'] as const;
const SWITCH = ['Enabled', 'Disabled'] as const;
/** The closed sets of `OutputConfig` (upstreams.md §5.4), by the wire's key. */
const CLOSED_SETS: Readonly<Record<string, readonly string[]>> = {
  StorageMode: ['Temporary', 'Permanent'],
  AudioGeneration: SWITCH,
  PersonGeneration: ['AllowAdult', 'Disallowed'],
  InputComplianceCheck: SWITCH,
  OutputComplianceCheck: SWITCH,
};
/** Keys the rules compute from the precedence rules rather than copy. */
const COMPUTED_KEYS: ReadonlySet<string> = new Set(['Duration', 'Resolution', 'AspectRatio']);
const ISO_8601_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * OpenAI-style clients send a pixel `size`; the ones whose resolution and ratio gamma has are read as
 * both (project convention, README).
 */
const PIXEL_SIZES: Readonly<Record<string, { resolution: GammaResolution; ratio: string }>> = {
  '1280x720': { resolution: '720P', ratio: '16:9' },
  '720x1280': { resolution: '720P', ratio: '9:16' },
  '720x720': { resolution: '720P', ratio: '1:1' },
  '1920x1080': { resolution: '1080P', ratio: '16:9' },
  '1080x1920': { resolution: '1080P', ratio: '9:16' },
  '1080x1080': { resolution: '1080P', ratio: '1:1' },
};

export interface GammaOutput {
  /** The wire's `OutputConfig`, every key PascalCase. */
  config: SerialisableObject;
  seconds: number;
  resolution: GammaResolution;
  aspectRatio?: string;
}

/**
 * `OutputConfig` from `metadata.output_config.*` key by key (snake_case → PascalCase, upstreams.md
 * §5.4), with the duration, resolution and ratio by the interface's precedence rules, audio and
 * off-peak from the fields and the model name's options, each checked against its set.
 */
export function gammaOutputOf(
  request: VideoRequest,
  model: GammaModel,
  dimensions: GammaDimensions,
  warnings: string[],
): VideoRuled<GammaOutput> {
  const given = outputConfigOf(request.metadata);
  if (!given.ok) return given;
  const copied = copiedOutputConfig(given.value);
  if (!copied.ok) return copied;
  const seconds = secondsOf(request, given.value, model, warnings);
  if (!seconds.ok) return seconds;
  const frame = frameOf(request, given.value, dimensions, warnings);
  if (!frame.ok) return frame;
  const audio = audioOf(copied.value.AudioGeneration, model, dimensions, request.model);
  if (!audio.ok) return audio;
  const offPeak = offPeakOf(request.metadata, dimensions);
  if (!offPeak.ok) return offPeak;
  const { resolution, aspectRatio } = frame.value;
  const config: SerialisableObject = {
    ...copied.value,
    Duration: seconds.value,
    Resolution: resolution,
    ...(aspectRatio === undefined ? {} : { AspectRatio: aspectRatio }),
    ...(audio.value === undefined ? {} : { AudioGeneration: audio.value }),
    ...(offPeak.value === undefined ? {} : { OffPeak: offPeak.value }),
  };
  return resolved({ config, seconds: seconds.value, resolution, aspectRatio });
}

/** Every key but the computed ones, renamed and checked where the wire has a closed set or a type. */
function copiedOutputConfig(given: SerialisableObject): VideoRuled<SerialisableObject> {
  const config: SerialisableObject = {};
  for (const [key, value] of Object.entries(given)) {
    const param = `metadata.output_config.${key}`;
    const wireKey = wireKeyOf(key);
    if (wireKey === undefined) {
      return videoRefusal(
        'metadata.output_config',
        'metadata.output_config keys must be snake_case (e.g. audio_generation)',
      );
    }
    if (COMPUTED_KEYS.has(wireKey)) continue;
    const checked = checkedValue(wireKey, value, param);
    if (!checked.ok) return checked;
    config[wireKey] = checked.value;
  }
  return resolved(config);
}

function checkedValue(wireKey: string, value: JsonValue, param: string): VideoRuled<JsonValue> {
  if (Object.hasOwn(CLOSED_SETS, wireKey)) {
    const match = oneOf(value, CLOSED_SETS[wireKey]);
    return match
      ? resolved(match)
      : videoRefusal(param, `${param} must be one of ${listed(CLOSED_SETS[wireKey])}`);
  }
  switch (wireKey) {
    case 'MediaName':
      return typeof value === 'string' ? resolved(value) : videoRefusal(param, `${param} must be a string`);
    case 'ClassId':
      return Number.isSafeInteger(value) && (value as number) >= 0
        ? resolved(value)
        : videoRefusal(param, `${param} must be a non-negative integer`);
    case 'ExpireTime':
      return typeof value === 'string' && ISO_8601_TIME.test(value) && !Number.isNaN(Date.parse(value))
        ? resolved(value)
        : videoRefusal(param, `${param} must be an ISO 8601 time such as 2026-12-31T23:59:59Z`);
    case 'OffPeak':
      return typeof value === 'boolean'
        ? resolved(value)
        : videoRefusal(param, `${param} must be true or false`);
  }
  return resolved(value);
}

/**
 * The interface's duration precedence (already applied into `request.seconds`), then
 * `output_config.duration`, then 5; the value must be one the model takes from this style.
 */
function secondsOf(
  request: VideoRequest,
  given: SerialisableObject,
  model: GammaModel,
  warnings: string[],
): VideoRuled<number> {
  const configured = Object.hasOwn(given, 'duration') ? given.duration : undefined;
  if (request.seconds !== undefined && configured !== undefined && configured !== request.seconds) {
    warnings.push('metadata.output_config.duration is ignored: seconds gives the duration');
  }
  const param =
    request.seconds !== undefined || configured === undefined ? 'seconds' : 'metadata.output_config.duration';
  const seconds = request.seconds ?? configured ?? GAMMA_DEFAULT_SECONDS;
  const allowed = gammaSecondsAllowed(model, request.style);
  if (typeof seconds === 'number' && allowed.includes(seconds)) return resolved(seconds);
  return videoRefusal(param, `${param} must be one of ${listed(allowed)} for ${request.model}`);
}

interface Frame {
  resolution: GammaResolution;
  aspectRatio?: string;
}

/**
 * Resolution: `output_config.resolution`, else `size` (both in `request.resolution`), else the model
 * name's, else 720P; it must agree with the model name's. Ratio: `output_config.aspect_ratio`, else
 * `aspect_ratio`, else the ratio of a pixel size; absent, the upstream chooses.
 */
function frameOf(
  request: VideoRequest,
  given: SerialisableObject,
  dimensions: GammaDimensions,
  warnings: string[],
): VideoRuled<Frame> {
  const resolutionParam = Object.hasOwn(given, 'resolution') ? 'metadata.output_config.resolution' : 'size';
  let resolution = dimensions.resolution ?? '720P';
  let sizeRatio: string | undefined;
  if (request.resolution !== undefined) {
    const sizeKey = request.resolution.trim().toLowerCase().replace('*', 'x');
    const pixels = Object.hasOwn(PIXEL_SIZES, sizeKey) ? PIXEL_SIZES[sizeKey] : undefined;
    const named = oneOf(request.resolution, GAMMA_RESOLUTIONS) ?? pixels?.resolution;
    if (named === undefined) {
      return videoRefusal(
        resolutionParam,
        `${resolutionParam} must be one of ${listed(GAMMA_RESOLUTIONS)}` +
          (resolutionParam === 'size' ? ` or ${listed(Object.keys(PIXEL_SIZES))}` : ''),
      );
    }
    if (dimensions.resolution !== undefined && named !== dimensions.resolution) {
      return videoRefusal(
        resolutionParam,
        `${resolutionParam} ${named} differs from the model name's ${dimensions.resolution}`,
      );
    }
    resolution = named;
    sizeRatio = Object.hasOwn(given, 'resolution') ? undefined : pixels?.ratio;
  }
  const configured = Object.hasOwn(given, 'aspect_ratio') ? given.aspect_ratio : undefined;
  if (configured !== undefined && request.aspectRatio !== undefined && configured !== request.aspectRatio) {
    warnings.push('aspect_ratio is ignored: metadata.output_config.aspect_ratio gives the ratio');
  }
  const ratioParam = configured !== undefined ? 'metadata.output_config.aspect_ratio' : 'aspect_ratio';
  const ratio = configured ?? request.aspectRatio ?? sizeRatio;
  if (ratio === undefined) return resolved({ resolution });
  const aspectRatio = oneOf(ratio, GAMMA_ASPECT_RATIOS);
  if (aspectRatio === undefined) {
    return videoRefusal(ratioParam, `${ratioParam} must be one of ${listed(GAMMA_ASPECT_RATIOS)}`);
  }
  return resolved({ resolution, aspectRatio });
}

/** `AudioGeneration` from the field or the model name's `audio`; only models with sound take Enabled. */
function audioOf(
  configured: JsonValue | undefined,
  model: GammaModel,
  dimensions: GammaDimensions,
  modelName: string,
): VideoRuled<string | undefined> {
  const param = 'metadata.output_config.audio_generation';
  if (dimensions.audio && configured === 'Disabled') {
    return videoRefusal(param, `${param} Disabled contradicts the model name's audio option`);
  }
  const audio = dimensions.audio ? 'Enabled' : (configured as string | undefined);
  if (audio === 'Enabled' && !model.audio) {
    return videoRefusal(
      dimensions.audio ? 'model' : param,
      `${modelName} generates no sound: audio_generation Enabled needs gamma-2.6 or gamma-3.0-omni`,
    );
  }
  return resolved(audio);
}

/** `OffPeak` from `metadata.offpeak` or the model name's `offpeak`, which must agree. */
function offPeakOf(
  metadata: SerialisableObject | undefined,
  dimensions: GammaDimensions,
): VideoRuled<boolean | undefined> {
  const given = metadataField(metadata, 'offpeak');
  if (given !== undefined && typeof given !== 'boolean') {
    return videoRefusal('metadata.offpeak', 'metadata.offpeak must be true or false');
  }
  if (dimensions.offPeak && given === false) {
    return videoRefusal(
      'metadata.offpeak',
      "metadata.offpeak false contradicts the model name's offpeak option",
    );
  }
  return resolved(dimensions.offPeak ? true : given);
}
