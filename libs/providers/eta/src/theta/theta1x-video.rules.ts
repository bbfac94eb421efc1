import {
  framesOnlyVideoCall,
  nonFrameInputRefusal,
  parseBase64DataUrl,
  unreadFieldWarnings,
  videoFramesOf,
  videoRefusal,
  type JsonValue,
  type SerialisableObject,
  type VideoImage,
  type VideoPlan,
  type VideoRefusal,
  type VideoRequest,
  type VideoRuled,
  type VideoRules,
} from '@gateway/providers-core';
import { theta1xModelOf, type Theta1xModel } from './theta-video-models';

/** `seconds` of the eta-theta 1.x channel (interface spec; the wire takes 3–12, §6.2); 5 when none is given. */
const MIN_SECONDS = 4;
const MAX_SECONDS = 11;
const DEFAULT_SECONDS = 5;
/** The 1.x channel's `size` values, sent as `ratio` (interface spec). */
const SIZES = ['keep_ratio', 'adaptive'];
/** `keep_ratio` is what the wire shows for 1.0 image to video only†; elsewhere it means `adaptive`. */
const KEEP_RATIO = 'keep_ratio';
const ADAPTIVE = 'adaptive';
/** `ratio` values of the wire (§6.2), for `aspect_ratio` and `metadata.ratio`. */
const WIRE_RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive'];
const HTTPS_URL = /^https:\/\/\S+$/i;

/** `metadata` fields sent as the wire's own, with the versions that take them (§6.2). */
const PASSED_BOOLEANS: Readonly<Record<string, readonly string[]>> = {
  camera_fixed: ['1.0', '1.5'],
  watermark: ['1.0', '1.5'],
  generate_audio: ['1.5'],
  draft: ['1.5'],
};
const MAX_SEED = 2 ** 32 - 1;
/** `metadata` keys the precedence rules already read. */
const READ_METADATA_KEYS: ReadonlySet<string> = new Set([
  'seconds',
  'duration',
  'video_duration',
  'ratio',
  'resolution',
  'output_config',
  'seed',
  ...Object.keys(PASSED_BOOLEANS),
]);

/**
 * The rules of `eta-theta-1-0-pro_*` and `eta-theta-1-5-pro_*` (interface spec, the eta-theta 1.x
 * channel; upstreams.md §6.2):
 * - the suffix is the resolution (and the price tier); a different resolution asked elsewhere is refused;
 * - seconds 4 to 11 (default 5), sent as `duration`;
 * - `size` `keep_ratio` or `adaptive`, sent as `ratio` (`keep_ratio` only where the wire shows it,
 *   1.0 with a first frame; elsewhere `adaptive`, with a warning); else `aspect_ratio` or
 *   `metadata.ratio` among the wire's ratios; else the upstream's default;
 * - images are a first and a last frame (`first_frame_image`, `last_frame_image` uploads, or URLs),
 *   each an https URL or an uploaded image; a prompt is required without one;
 * - `metadata.seed`, `camera_fixed`, `watermark`, and on 1.5 `generate_audio` and `draft`, pass on.
 */
export const theta1xVideoRules: VideoRules = {
  servesVideoModel: (model) => theta1xModelOf(model) !== undefined,
  planVideo: planTheta1xVideo,
};

export function planTheta1xVideo(request: VideoRequest): VideoPlan {
  const { model } = request;
  const theta = theta1xModelOf(model);
  if (!theta) return videoRefusal('model', `${model} is not an eta-theta 1.x model`);
  const unsupported = nonFrameInputRefusal(request);
  if (unsupported) return unsupported;
  const frames = videoFramesOf(request.images, model);
  if (!frames.ok) return frames;
  const images = [frames.first, frames.last].filter((image): image is VideoImage => image !== undefined);
  const badImage = images.find((image) => !isThetaImageForm(image.url));
  if (badImage) {
    return videoRefusal(
      badImage.source,
      `${badImage.source} must be an https URL or an uploaded image for ${model}`,
    );
  }
  const prompt = request.prompt ?? '';
  if (frames.mode === 'text' && prompt.trim() === '') {
    return videoRefusal('prompt', `prompt is required for ${model} without a first frame`);
  }
  const secondsField = request.style === 'openai' ? 'seconds' : 'duration';
  const seconds = request.seconds ?? DEFAULT_SECONDS;
  if (!Number.isInteger(seconds) || seconds < MIN_SECONDS || seconds > MAX_SECONDS) {
    return videoRefusal(
      secondsField,
      `${secondsField} must be a whole number from ${MIN_SECONDS} to ${MAX_SECONDS} for ${model}`,
    );
  }
  const resolutionRefusal = resolutionRefusalOf(request, theta);
  if (resolutionRefusal) return resolutionRefusal;
  const warnings: string[] = [];
  const ratio = ratioOf(request, theta, frames.mode !== 'text', warnings);
  if (!ratio.ok) return ratio;
  const extras = extrasOf(request, theta, warnings);
  if (!extras.ok) return extras;
  const call = framesOnlyVideoCall({
    family: 'theta',
    mode: frames.mode,
    prompt,
    seconds,
    resolution: theta.resolution,
    size: null,
    aspectRatio: ratio.value,
    images,
    extras: extras.value,
  });
  return { ok: true, call, warnings };
}

function isThetaImageForm(url: string): boolean {
  if (HTTPS_URL.test(url)) return true;
  const dataUrl = parseBase64DataUrl(url);
  return dataUrl !== undefined && dataUrl.mimeType.toLowerCase().startsWith('image/') && dataUrl.data !== '';
}

/**
 * The suffix fixes the resolution: another one asked for (`metadata.output_config.resolution`, or the
 * wire's own `metadata.resolution`) is refused. The precedence rule fills `resolution` from `size` when
 * metadata names none, and `size` here is a ratio word, so only a value other than `size` was asked.
 */
function resolutionRefusalOf(request: VideoRequest, theta: Theta1xModel): VideoRefusal | undefined {
  const asked: Array<[string, unknown]> = [
    [
      'metadata.output_config.resolution',
      request.resolution === request.size ? undefined : request.resolution,
    ],
    ['metadata.resolution', request.metadata?.resolution],
  ];
  for (const [field, value] of asked) {
    if (value === undefined) continue;
    const tier = typeof value === 'string' ? value.trim().toLowerCase() : String(value);
    if (tier === theta.resolution) continue;
    return videoRefusal(
      field,
      `the resolution of ${request.model} is ${theta.resolution}, set by its name; use ${theta.base}_${tier} for another`,
    );
  }
  return undefined;
}

function ratioOf(
  request: VideoRequest,
  theta: Theta1xModel,
  hasFirstFrame: boolean,
  warnings: string[],
): VideoRuled<string | null> {
  const { model, size, aspectRatio } = request;
  const metadataRatio = request.metadata?.ratio;
  if (size !== undefined) {
    if (!SIZES.includes(size))
      return videoRefusal('size', `size must be one of ${SIZES.join(', ')} for ${model}`);
    if (aspectRatio !== undefined) warnings.push(`aspect_ratio is ignored: size ${size} sets the ratio`);
    if (size === KEEP_RATIO && !(theta.version === '1.0' && hasFirstFrame)) {
      warnings.push(
        `size keep_ratio is sent as adaptive: ${model} keeps the ratio of a first frame that way`,
      );
      return { ok: true, value: ADAPTIVE };
    }
    return { ok: true, value: size };
  }
  const [field, ratio] =
    aspectRatio !== undefined ? ['aspect_ratio', aspectRatio] : ['metadata.ratio', metadataRatio];
  if (ratio === undefined) return { ok: true, value: null };
  if (typeof ratio !== 'string' || !WIRE_RATIOS.includes(ratio)) {
    return videoRefusal(field, `${field} must be one of ${WIRE_RATIOS.join(', ')} for ${model}`);
  }
  return { ok: true, value: ratio };
}

/** The metadata fields the wire takes, checked; anything else the wire has no place for is named in a warning. */
function extrasOf(
  request: VideoRequest,
  theta: Theta1xModel,
  warnings: string[],
): VideoRuled<SerialisableObject> {
  const { model, metadata = {} } = request;
  const extras: SerialisableObject = {};
  const seed: JsonValue | undefined = metadata.seed;
  if (seed !== undefined) {
    if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < -1 || seed > MAX_SEED) {
      return videoRefusal(
        'metadata.seed',
        `metadata.seed must be an integer from -1 to ${MAX_SEED} for ${model}`,
      );
    }
    extras.seed = seed;
  }
  for (const [field, versions] of Object.entries(PASSED_BOOLEANS)) {
    const value = metadata[field];
    if (value === undefined) continue;
    if (typeof value !== 'boolean')
      return videoRefusal(`metadata.${field}`, `metadata.${field} must be a boolean`);
    if (versions.includes(theta.version)) extras[field] = value;
    else warnings.push(`metadata.${field} is ignored: ${model} has no such option`);
  }
  warnings.push(...unreadFieldWarnings(model, request.extras, metadata, READ_METADATA_KEYS));
  return { ok: true, value: extras };
}
