import {
  framesOnlyVideoCall,
  isVideoImageForm,
  metadataOutputConfigOf,
  secondsParamOf,
  videoFramesOf,
  videoRefusal,
  type SerialisableObject,
  type VideoPlan,
  type VideoRequest,
  type VideoRuled,
  type VideoRules,
} from '@gateway/providers-core';
import {
  MU_BOOLEAN_OPTIONS,
  MU_DEFAULT_DURATION,
  MU_DEFAULT_RESOLUTION,
  MU_DURATIONS,
  MU_LONGEST_AT_1080P,
  MU_MAX_PROMPT_CHARACTERS,
  MU_RESOLUTIONS,
  MU_VIDEO_MODELS,
  muVideoModelOf,
} from './mu-models';

/**
 * The mu family's rules (upstreams.md §7.3; interface spec family notes):
 * - first-frame-to-video only, for both models (the video-families issue): the frame in `image`, a
 *   request without one refused naming `image`; the prompt is optional beside the frame; last frames,
 *   reference images, reference clips, subjects and remixes are refused, saying so;
 * - `seconds` 6 (the default) or 10; the resolution from `metadata.output_config.resolution` (else
 *   `size`), `768P` (the default) or `1080P`, and 1080P at 6 s only;
 * - the wire has no aspect ratio: `aspect_ratio` (and `metadata.output_config.aspect_ratio`) is dropped
 *   with a warning, never silently;
 * - `metadata.prompt_optimizer`, `fast_pretreatment` and `aigc_watermark` pass on as booleans.
 * The price tier is the resolution, lower case (`768p`, `1080p`).
 */
export const muVideoRules: VideoRules = {
  servesVideoModel: (model) => muVideoModelOf(model) !== undefined,
  planVideo: planMuVideo,
};

function planMuVideo(request: VideoRequest): VideoPlan {
  if (!muVideoModelOf(request.model)) {
    return videoRefusal('model', `model must be one of ${Object.keys(MU_VIDEO_MODELS).join(', ')}`);
  }
  const firstFrame = firstFrameOf(request);
  if (!firstFrame.ok) return firstFrame;
  const prompt = request.prompt ?? '';
  if ([...prompt].length > MU_MAX_PROMPT_CHARACTERS) {
    return videoRefusal(
      'prompt',
      `prompt must be at most ${MU_MAX_PROMPT_CHARACTERS} characters for ${request.model}`,
    );
  }
  const seconds = secondsOf(request);
  if (!seconds.ok) return seconds;
  const resolution = resolutionOf(request);
  if (!resolution.ok) return resolution;
  if (resolution.value === '1080P' && seconds.value > MU_LONGEST_AT_1080P) {
    return videoRefusal(
      secondsParamOf(request),
      `${request.model} makes 1080P videos of ${MU_LONGEST_AT_1080P} seconds only; ask 768P for ${seconds.value} seconds`,
    );
  }
  const extras = optionsOf(request.metadata);
  if (!extras.ok) return extras;
  const call = framesOnlyVideoCall({
    family: 'mu',
    mode: 'first_frame',
    prompt,
    seconds: seconds.value,
    resolution: resolution.value.toLowerCase(),
    size: resolution.value,
    aspectRatio: null,
    images: [{ role: 'first_frame', url: firstFrame.value }],
    extras: extras.value,
  });
  return { ok: true, call, warnings: droppedFieldWarnings(request) };
}

/**
 * The first frame's URL; its absence and any other input mode are refused. Images are read as frames
 * the way every first/last-frame family reads them (one `images[]` entry is a first frame, as in the
 * unified style); a second image is a last frame, which the wire has no field for.
 */
function firstFrameOf(request: VideoRequest): VideoRuled<string> {
  const name = request.model;
  const modes = `${name} is image-to-video only`;
  const frames = videoFramesOf(request.images, name);
  if (!frames.ok) return videoRefusal(frames.param, `${modes}: send one image, the first frame, in image`);
  if (frames.last) {
    return videoRefusal(
      frames.last.source,
      `${modes}: send one first frame in image (last frames are not supported)`,
    );
  }
  if (request.clips.length > 0) {
    const clip = request.clips[0];
    return videoRefusal(
      clip.type === 'video' ? 'metadata.video_url' : 'audio',
      `${modes}: reference ${clip.type} is not supported`,
    );
  }
  if (request.subjects.length > 0) return videoRefusal('subjects', `${modes}: subjects are not supported`);
  if (request.remixOf !== undefined) return videoRefusal('model', `${name} cannot remix a video`);
  if (!frames.first) return videoRefusal('image', `${modes}: send the first frame in image`);
  const { url, source } = frames.first;
  if (!isVideoImageForm(url)) {
    return videoRefusal(source, `${source} must be an http(s) URL or a data:image/…;base64, URI`);
  }
  return { ok: true, value: url };
}

function secondsOf(request: VideoRequest): VideoRuled<number> {
  if (request.seconds === undefined) return { ok: true, value: MU_DEFAULT_DURATION };
  if (MU_DURATIONS.includes(request.seconds)) return { ok: true, value: request.seconds };
  return videoRefusal(
    secondsParamOf(request),
    `${secondsParamOf(request)} must be ${MU_DURATIONS.join(' or ')} for ${request.model}`,
  );
}

/** The resolution asked in `metadata.output_config.resolution` (else `size`), upper case, or the default. */
function resolutionOf(request: VideoRequest): VideoRuled<string> {
  if (request.resolution === undefined) return { ok: true, value: MU_DEFAULT_RESOLUTION };
  const value = request.resolution.trim().toUpperCase();
  if (MU_RESOLUTIONS.includes(value)) return { ok: true, value };
  const param =
    metadataOutputConfigOf(request.metadata)?.resolution !== undefined
      ? 'metadata.output_config.resolution'
      : 'size';
  return videoRefusal(
    param,
    `${param} must be ${MU_RESOLUTIONS.join(' or ')} for ${request.model} (mu takes a resolution, not a pixel size)`,
  );
}

/** The wire's own switches, from `metadata`, each a boolean when present. */
function optionsOf(metadata: SerialisableObject | undefined): VideoRuled<SerialisableObject> {
  const options: SerialisableObject = {};
  for (const name of MU_BOOLEAN_OPTIONS) {
    const value = metadata?.[name];
    if (value === undefined) continue;
    if (typeof value !== 'boolean')
      return videoRefusal(`metadata.${name}`, `metadata.${name} must be true or false`);
    options[name] = value;
  }
  return { ok: true, value: options };
}

/** What the client asked that the wire has no field for. */
function droppedFieldWarnings(request: VideoRequest): string[] {
  const warnings: string[] = [];
  const noRatio = `: ${request.model} has no aspect ratio (the first frame, or the upstream, decides the frame)`;
  if (request.aspectRatio !== undefined) warnings.push(`aspect_ratio was ignored${noRatio}`);
  const outputConfig = metadataOutputConfigOf(request.metadata);
  if (outputConfig?.aspect_ratio !== undefined) {
    warnings.push(`metadata.output_config.aspect_ratio was ignored${noRatio}`);
  }
  const size = request.size?.trim().toUpperCase();
  if (
    outputConfig?.resolution !== undefined &&
    size !== undefined &&
    size !== request.resolution?.trim().toUpperCase()
  ) {
    warnings.push(
      `size was ignored: ${request.model} takes the resolution from metadata.output_config.resolution`,
    );
  }
  return warnings;
}
