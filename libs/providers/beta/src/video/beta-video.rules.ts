import {
  framesOnlyVideoCall,
  nonFrameInputRefusal,
  unreadFieldWarnings,
  videoFramesOf,
  videoRefusal,
  type SerialisableObject,
  type VideoImage,
  type VideoPlan,
  type VideoRequest,
  type VideoRuled,
  type VideoRules,
} from '@gateway/providers-core';
import { BETA_VIDEO_MODELS, betaVideoOffer, type BetaVideoResolution } from '@gateway/dialects';
import {
  BETA_VIDEO_DEFAULT_RATIO,
  BETA_VIDEO_DEFAULT_RESOLUTION,
  BETA_VIDEO_DEFAULT_SECONDS,
  BETA_VIDEO_MAX_PROMPT_CHARACTERS,
  BETA_VIDEO_RESOLUTIONS,
  BETA_VIDEO_SECONDS,
  betaVideoConstraintsOf,
  type BetaVideoStyleConstraints,
} from './beta-video-constraints';
import { checkBetaVideoImages } from './beta-video-images.rules';

/** `metadata` keys the rules read: the precedence rules' duration and resolution places, and `seed`. */
const READ_METADATA_KEYS: ReadonlySet<string> = new Set([
  'output_config',
  'seconds',
  'duration',
  'video_duration',
  'seed',
]);

/**
 * The rules of `beta-video-3.0` and `beta-video-2.0` (interface spec, constraints by style; upstreams.md
 * §4.3):
 * - the images are a first and a last frame (0, 1 or 2: text, first frame, first and last frame), all
 *   URLs or all uploads; `beta-video-2.0` takes one at most;
 * - seconds 5, 10 or 15 (default 5), sent as `frames`;
 * - OpenAI style: `size` 720x1280 or 1280x720 (720p, the orientation), `aspect_ratio` 16:9, 9:16, 1:1;
 *   unified style: `size` 720P or 1080P, `aspect_ratio` also 4:3, 3:4, 21:9; in both,
 *   `metadata.output_config.resolution` 720P or 1080P wins over `size`'s resolution; the resolution is
 *   the price tier and picks the `req_key` with the mode (§4.3);
 * - a ratio is sent for text only: the image modes take the first frame's ratio (a warning says so);
 * - `metadata.seed` is the wire's `seed`; fields the wire has no place for are dropped with a warning.
 */
export const betaVideoRules: VideoRules = {
  servesVideoModel: (model) => BETA_VIDEO_MODELS.includes(model),
  planVideo: planBetaVideo,
};

export function planBetaVideo(request: VideoRequest): VideoPlan {
  const { model } = request;
  if (!BETA_VIDEO_MODELS.includes(model)) return videoRefusal('model', `${model} is not a beta video model`);
  const unsupported = nonFrameInputRefusal(request);
  if (unsupported) return unsupported;
  const prompt = request.prompt ?? '';
  if (prompt.length > BETA_VIDEO_MAX_PROMPT_CHARACTERS) {
    return videoRefusal(
      'prompt',
      `prompt must be at most ${BETA_VIDEO_MAX_PROMPT_CHARACTERS} characters for ${model}`,
    );
  }
  const frames = videoFramesOf(request.images, model);
  if (!frames.ok) return frames;
  const offer = betaVideoOffer(model);
  if (!offer.modes.includes(frames.mode)) {
    return videoRefusal(
      (frames.last ?? frames.first)?.source ?? 'images',
      `${model} takes at most one image (the first frame)`,
    );
  }
  const images = [frames.first, frames.last].filter((image): image is VideoImage => image !== undefined);
  const imageRefusal = checkBetaVideoImages(images, model);
  if (imageRefusal) return imageRefusal;
  if (frames.mode === 'text' && prompt.trim() === '') {
    return videoRefusal('prompt', `prompt is required for ${model} without images`);
  }
  const constraints = betaVideoConstraintsOf(request.style);
  const seconds = request.seconds ?? BETA_VIDEO_DEFAULT_SECONDS;
  if (!BETA_VIDEO_SECONDS.includes(seconds)) {
    return videoRefusal(
      constraints.fields.seconds,
      `${constraints.fields.seconds} must be one of ${BETA_VIDEO_SECONDS.join(', ')} for ${model}`,
    );
  }
  const warnings: string[] = [];
  const output = outputOf(request, constraints, offer.resolutions, warnings);
  if (!output.ok) return output;
  const extras = extrasOf(request, warnings);
  if (!extras.ok) return extras;
  let aspectRatio: string | null = output.value.ratio ?? BETA_VIDEO_DEFAULT_RATIO;
  if (frames.mode !== 'text') {
    if (output.value.ratio !== undefined) {
      warnings.push(`aspect_ratio is ignored: ${model} follows the first frame's aspect ratio`);
    }
    aspectRatio = null;
  }
  const call = framesOnlyVideoCall({
    family: 'beta',
    mode: frames.mode,
    prompt,
    seconds,
    resolution: output.value.resolution,
    size: null,
    aspectRatio,
    images,
    extras: extras.value,
  });
  return { ok: true, call, warnings };
}

interface Output {
  resolution: BetaVideoResolution;
  /** The ratio the client asked for, by `size` or `aspect_ratio`; undefined when it asked none. */
  ratio?: string;
}

function outputOf(
  request: VideoRequest,
  constraints: BetaVideoStyleConstraints,
  offered: readonly BetaVideoResolution[],
  warnings: string[],
): VideoRuled<Output> {
  const { model, size } = request;
  const { fields } = constraints;
  const sized = size === undefined ? undefined : constraints.sizes[size.trim().toUpperCase()];
  if (size !== undefined && !sized) {
    const allowed = Object.keys(constraints.sizes).map((name) => name.replace('X', 'x'));
    return videoRefusal(fields.size, `${fields.size} must be one of ${allowed.join(', ')} for ${model}`);
  }
  const aspectRatio = request.aspectRatio;
  if (aspectRatio !== undefined && !constraints.aspectRatios.includes(aspectRatio)) {
    return videoRefusal(
      fields.aspectRatio,
      `${fields.aspectRatio} must be one of ${constraints.aspectRatios.join(', ')} for ${model}`,
    );
  }
  if (sized?.ratio !== undefined && aspectRatio !== undefined && aspectRatio !== sized.ratio) {
    warnings.push(`aspect_ratio is ignored: size ${size} gives ${sized.ratio}`);
  }
  // The precedence rule puts size in resolution when metadata gives none: a different value came from metadata.
  const fromMetadata = request.resolution !== undefined && request.resolution !== size;
  let resolution = sized?.resolution ?? BETA_VIDEO_DEFAULT_RESOLUTION;
  let resolutionField = fields.size;
  if (fromMetadata) {
    resolutionField = 'metadata.output_config.resolution';
    const asked = BETA_VIDEO_RESOLUTIONS[(request.resolution as string).trim().toUpperCase()];
    if (!asked) {
      return videoRefusal(
        resolutionField,
        `${resolutionField} must be one of ${Object.keys(BETA_VIDEO_RESOLUTIONS).join(', ')} for ${model}`,
      );
    }
    resolution = asked;
  }
  if (!(offered as readonly string[]).includes(resolution)) {
    return videoRefusal(
      resolutionField,
      `${model} is offered at ${offered.map((tier) => tier.toUpperCase()).join(', ')} only`,
    );
  }
  return {
    ok: true,
    value: { resolution: resolution as BetaVideoResolution, ratio: sized?.ratio ?? aspectRatio },
  };
}

/** `metadata.seed` becomes the wire's `seed`; anything else the wire has no place for is named in a warning. */
function extrasOf(request: VideoRequest, warnings: string[]): VideoRuled<SerialisableObject> {
  const { model, metadata = {} } = request;
  const extras: SerialisableObject = {};
  const seed = metadata.seed;
  if (seed !== undefined) {
    if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < -1) {
      return videoRefusal('metadata.seed', `metadata.seed must be an integer from -1 (random) for ${model}`);
    }
    extras.seed = seed;
  }
  warnings.push(...unreadFieldWarnings(model, request.extras, metadata, READ_METADATA_KEYS));
  return { ok: true, value: extras };
}
