import {
  framesOnlyVideoCall,
  isVideoImageForm,
  metadataOutputConfigOf,
  secondsParamOf,
  videoFramesOf,
  videoRefusal,
  type JsonValue,
  type SerialisableObject,
  type VideoPlan,
  type VideoRefusal,
  type VideoRequest,
  type VideoRuled,
  type VideoRules,
} from '@gateway/providers-core';
import {
  OMEGA_DEFAULT_DURATION,
  OMEGA_DURATIONS,
  OMEGA_MAX_SEED,
  OMEGA_RESOLUTIONS,
  OMEGA_SHOT_TYPES,
  OMEGA_SIZES_BY_TIER,
  OMEGA_VIDEO_MODELS,
  omegaBaseOfKind,
  omegaSizeList,
  omegaTierOfSize,
  parseOmegaModelName,
  type OmegaModelName,
} from './omega-models';

/** `1280x720`, `1280*720` and `1280×720` are one size; the wire writes the asterisk. */
const SIZE_FORM = /^(\d{1,5})\s*[*x×]\s*(\d{1,5})$/i;
const AUDIO_GENERATION: Readonly<Record<string, boolean>> = { Enabled: true, Disabled: false };

/** What the model name fixes: the size on the wire (`1280*720` or `720P`) and its tier. */
interface OmegaOutput {
  /** t2v: `parameters.size`; i2v: `parameters.resolution`. */
  wireSize: string;
  tier: string;
}

/**
 * The omega family's rules (upstreams.md §8.3). The part after the colon of the model name fixes the
 * output: `omega2.6-t2v:<W*H>` is text to video at that size (one of the ten of §8.3),
 * `omega2.6-i2v:<W*H>` is first-frame-to-video at that size's resolution tier (`720P`, `1080P`).
 * - t2v takes no image; i2v takes exactly one, the first frame in `image`; other modes are refused;
 * - `seconds` 5 (the default), 10 or 15;
 * - a `size` or `metadata.output_config.resolution` the client also sends must agree with the model
 *   (the price row is the model's); `aspect_ratio` has no field: dropped with a warning unless the
 *   size already has that ratio;
 * - `metadata.negative_prompt`, `audio_url`, `prompt_extend`, `shot_type`, `audio` (or
 *   `output_config.audio_generation`), `watermark` and `seed` pass on, checked.
 * The price tier is the resolution tier, lower case (`720p`, `1080p`).
 */
export const omegaVideoRules: VideoRules = {
  servesVideoModel: (model) => parseOmegaModelName(model) !== undefined,
  planVideo: planOmegaVideo,
};

function planOmegaVideo(request: VideoRequest): VideoPlan {
  const name = parseOmegaModelName(request.model);
  if (!name) {
    return videoRefusal(
      'model',
      `model must be ${Object.keys(OMEGA_VIDEO_MODELS)
        .map((base) => `${base}:<size>`)
        .join(' or ')}`,
    );
  }
  const output = outputOf(name, request.model);
  if (!output.ok) return output;
  const firstFrame = firstFrameOf(request, name);
  if (!firstFrame.ok) return firstFrame;
  const prompt = request.prompt ?? '';
  if (firstFrame.value === undefined && prompt.trim() === '') {
    return videoRefusal('prompt', `prompt is required for ${request.model}`);
  }
  const agreement = clientSizeProblem(request, name, output.value);
  if (agreement) return agreement;
  const seconds = secondsOf(request);
  if (!seconds.ok) return seconds;
  const extras = optionsOf(request.metadata);
  if (!extras.ok) return extras;
  const call = framesOnlyVideoCall({
    family: 'omega',
    mode: firstFrame.value === undefined ? 'text' : 'first_frame',
    prompt,
    seconds: seconds.value,
    resolution: output.value.tier.toLowerCase(),
    size: output.value.wireSize,
    aspectRatio: null,
    images: firstFrame.value === undefined ? [] : [{ role: 'first_frame', url: firstFrame.value }],
    extras: extras.value,
  });
  return { ok: true, call, warnings: aspectRatioWarnings(request, name, output.value) };
}

function outputOf(name: OmegaModelName, model: string): VideoRuled<OmegaOutput> {
  const tier = omegaTierOfSize(name.suffix);
  if (tier === undefined) {
    return videoRefusal('model', `${model}: the part after the colon must be a size of ${omegaSizeList()}`);
  }
  return { ok: true, value: { wireSize: name.kind === 'text_to_video' ? name.suffix : tier, tier } };
}

/**
 * i2v: the first frame's URL; t2v: undefined. Images are read as frames the way every first/last-frame
 * family reads them (one `images[]` entry is a first frame); any other input is refused, saying what
 * the model takes.
 */
function firstFrameOf(request: VideoRequest, name: OmegaModelName): VideoRuled<string | undefined> {
  const model = request.model;
  const imageToVideo = name.kind === 'image_to_video';
  const takes = imageToVideo
    ? `${model} is first-frame-to-video: send one first frame in image`
    : `${model} is text to video: send images to an ${omegaBaseOfKind('image_to_video')}:<size> model`;
  if (!imageToVideo && request.images.length > 0) return videoRefusal(request.images[0].source, takes);
  const frames = videoFramesOf(request.images, model);
  if (!frames.ok) return videoRefusal(frames.param, takes);
  if (frames.last) return videoRefusal(frames.last.source, `${takes} (last frames are not supported)`);
  if (request.clips.length > 0) {
    const clip = request.clips[0];
    return videoRefusal(
      clip.type === 'video' ? 'metadata.video_url' : 'audio',
      `${model} takes no reference ${clip.type} (an audio track goes in metadata.audio_url)`,
    );
  }
  if (request.subjects.length > 0) return videoRefusal('subjects', `${model} takes no subjects`);
  if (request.remixOf !== undefined) return videoRefusal('model', `${model} cannot remix a video`);
  if (!frames.first) return imageToVideo ? videoRefusal('image', takes) : { ok: true, value: undefined };
  const { url, source } = frames.first;
  if (!isVideoImageForm(url)) {
    return videoRefusal(source, `${source} must be an http(s) URL or a data:image/…;base64, URI`);
  }
  return { ok: true, value: url };
}

/** `W*H` for a size written in any of the accepted forms; the text upper-cased otherwise (`720P`). */
function normalisedSize(value: string): string {
  const match = SIZE_FORM.exec(value.trim());
  return match ? `${Number(match[1])}*${Number(match[2])}` : value.trim().toUpperCase();
}

/**
 * A size or resolution the client sent beside the model name must say what the name says: the same
 * size (t2v), a size of the same tier (i2v, whose frame shape follows the image), or the tier itself.
 */
function clientSizeProblem(
  request: VideoRequest,
  name: OmegaModelName,
  output: OmegaOutput,
): VideoRefusal | undefined {
  const outputConfig = metadataOutputConfigOf(request.metadata);
  const asked: Array<[param: string, value: JsonValue | undefined]> = [
    ['size', request.size],
    ['metadata.output_config.resolution', outputConfig?.resolution],
  ];
  for (const [param, value] of asked) {
    if (value === undefined) continue;
    const size = typeof value === 'string' ? normalisedSize(value) : undefined;
    const agrees =
      size !== undefined &&
      (size === output.tier ||
        (name.kind === 'text_to_video'
          ? size === name.suffix
          : OMEGA_SIZES_BY_TIER[output.tier].includes(size)));
    if (!agrees) {
      const allowed = name.kind === 'text_to_video' ? `${name.suffix} or ${output.tier}` : output.tier;
      return videoRefusal(
        param,
        `${param} must be ${allowed} for ${request.model} (the model name fixes the output; choose the model of the ${
          name.kind === 'text_to_video' ? 'size' : 'resolution'
        } you want: ${OMEGA_RESOLUTIONS.join(', ')} tiers)`,
      );
    }
  }
  return undefined;
}

function secondsOf(request: VideoRequest): VideoRuled<number> {
  if (request.seconds === undefined) return { ok: true, value: OMEGA_DEFAULT_DURATION };
  if (OMEGA_DURATIONS.includes(request.seconds)) return { ok: true, value: request.seconds };
  const param = secondsParamOf(request);
  return videoRefusal(param, `${param} must be ${OMEGA_DURATIONS.join(', ')} for ${request.model}`);
}

/** The wire's options from `metadata`, checked, under their wire names. */
function optionsOf(metadata: SerialisableObject | undefined): VideoRuled<SerialisableObject> {
  const options: SerialisableObject = {};
  const problem = (field: string, rule: string): VideoRefusal =>
    videoRefusal(`metadata.${field}`, `metadata.${field} ${rule}`);
  const text = (field: string): VideoRefusal | undefined => {
    const value = metadata?.[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') return problem(field, 'must be a string');
    options[field] = value;
    return undefined;
  };
  const flag = (field: string): VideoRefusal | undefined => {
    const value = metadata?.[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') return problem(field, 'must be true or false');
    options[field] = value;
    return undefined;
  };
  const refusal = text('negative_prompt') ?? flag('prompt_extend') ?? flag('audio') ?? flag('watermark');
  if (refusal) return refusal;
  const audioUrl = metadata?.audio_url;
  if (audioUrl !== undefined) {
    if (typeof audioUrl !== 'string' || !/^https?:\/\/\S+$/i.test(audioUrl)) {
      return problem('audio_url', 'must be an http(s) URL');
    }
    options.audio_url = audioUrl;
  }
  const shotType = metadata?.shot_type;
  if (shotType !== undefined) {
    if (typeof shotType !== 'string' || !OMEGA_SHOT_TYPES.includes(shotType)) {
      return problem('shot_type', `must be ${OMEGA_SHOT_TYPES.join(' or ')}`);
    }
    options.shot_type = shotType;
  }
  const seed = metadata?.seed;
  if (seed !== undefined) {
    if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > OMEGA_MAX_SEED) {
      return problem('seed', `must be an integer from 0 to ${OMEGA_MAX_SEED}`);
    }
    options.seed = seed;
  }
  if (options.audio === undefined) {
    const generation = metadataOutputConfigOf(metadata)?.audio_generation;
    if (generation !== undefined) {
      if (typeof generation !== 'string' || !Object.hasOwn(AUDIO_GENERATION, generation)) {
        return problem(
          'output_config.audio_generation',
          `must be ${Object.keys(AUDIO_GENERATION).join(' or ')}`,
        );
      }
      options.audio = AUDIO_GENERATION[generation];
    }
  }
  return { ok: true, value: options };
}

/** The wire has no aspect ratio: one the size does not already have is dropped, with a warning. */
function aspectRatioWarnings(request: VideoRequest, name: OmegaModelName, output: OmegaOutput): string[] {
  const sizeRatio = name.kind === 'text_to_video' ? reducedRatioOf(name.suffix) : undefined;
  const why =
    sizeRatio === undefined
      ? `${request.model} follows the first frame's shape`
      : `${request.model} makes ${output.wireSize} (${sizeRatio})`;
  const warnings: string[] = [];
  const asked: Array<[param: string, value: JsonValue | undefined]> = [
    ['aspect_ratio', request.aspectRatio],
    ['metadata.output_config.aspect_ratio', metadataOutputConfigOf(request.metadata)?.aspect_ratio],
  ];
  for (const [param, value] of asked) {
    if (value !== undefined && value !== sizeRatio) warnings.push(`${param} was ignored: ${why}`);
  }
  return warnings;
}

/** `1280*720` → `16:9`. */
function reducedRatioOf(size: string): string {
  const [width, height] = size.split('*').map(Number);
  const divisor = greatestCommonDivisor(width, height);
  return `${width / divisor}:${height / divisor}`;
}

function greatestCommonDivisor(left: number, right: number): number {
  return right === 0 ? left : greatestCommonDivisor(right, left % right);
}
