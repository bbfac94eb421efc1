import {
  secondsParamOf,
  videoRefusal,
  type SerialisableObject,
  type VideoCall,
  type VideoPlan,
  type VideoRequest,
  type VideoRules,
} from '@gateway/providers-core';
import { compatVideoHandleOf } from './compat-video-handle';
import {
  REMIX_FAMILIES,
  compatVideoFamilyOf,
  type CompatVideoFamily,
  type CompatVideoSize,
} from './compat-video-families';
import { dataImageDimensions, decideVideoImages } from './compat-video-images.rules';
import { decideVideoSeconds } from './compat-video-seconds.rules';
import { decideVideoFrame, resolutionParamOf, type VideoFrameDecision } from './compat-video-size.rules';

/** The unified route's delta extras; the delta wire's relays take them as top-level fields. */
const DELTA_EXTRAS: ReadonlySet<string> = new Set(['watermark', 'private', 'style', 'storyboard']);
/** `metadata` keys the gateway reads itself (duration and resolution precedence). */
const PRECEDENCE_METADATA_KEYS: ReadonlySet<string> = new Set([
  'seconds',
  'duration',
  'video_duration',
  'output_config',
]);

/**
 * The family rules of the OpenAI-style videos wire (upstreams.md §2.4, §10): `delta-2`, `delta-2-pro`,
 * `epsilon_3_1`, `-fast`, `-extend`, `zeta-video-3`, `-pro`, `-max`, and the open prefixes `nu-*`,
 * `xi-*` (permissive: seconds, size and ratio as sent, images in `images[]`, no remix). The value sets
 * live in compat-video-families.ts; each refusal names the field and the allowed values.
 */
export const compatVideoRules: VideoRules = {
  servesVideoModel: (model) => compatVideoFamilyOf(model) !== undefined,
  planVideo: planCompatVideo,
};

function planCompatVideo(request: VideoRequest): VideoPlan {
  const family = compatVideoFamilyOf(request.model);
  if (!family) return videoRefusal('model', `${request.model} is not a video model of the compat wire`);
  const prompt = request.prompt ?? '';
  if (prompt.trim() === '') return videoRefusal('prompt', `prompt is required for ${request.model}`);
  const unsupported = clipAndSubjectRefusal(request);
  if (unsupported) return unsupported;
  if (request.remixOf !== undefined) return planRemix(request, family, prompt);
  const images = decideVideoImages(request, family);
  if (!images.ok) return images;
  const referenceMode = images.mode === 'reference';
  const decided = decideVideoFrame(request, family, referenceMode);
  const frame = decided.ok && family.kind === 'delta' ? fitDeltaImage(request, family, decided) : decided;
  if (!frame.ok) return frame;
  const seconds = decideVideoSeconds(request, family, frame.tier, referenceMode);
  if (!seconds.ok) return seconds;
  const passed = passedFieldsOf(request, family);
  const call: VideoCall = {
    kind: 'video',
    family: family.name,
    mode: images.mode,
    prompt,
    seconds: seconds.seconds,
    resolution: frame.tier,
    size: frame.size,
    aspectRatio: frame.aspectRatio,
    images: images.images,
    clips: [],
    subjects: [],
    metadata: passed.metadata,
    extras: passed.extras,
    remixOf: null,
  };
  const warnings = [...images.warnings, ...frame.warnings, ...seconds.warnings, ...passed.warnings];
  return { ok: true, call, warnings };
}

/**
 * A remix (`delta-*`: a new video from a finished one) or an extension (`epsilon_3_1-extend`): a prompt
 * only, the source's size kept; delta keeps the source's duration, an extension is 8 s of 720p.
 */
function planRemix(request: VideoRequest, family: CompatVideoFamily, prompt: string): VideoPlan {
  const model = request.model;
  if (!family.remix) {
    return videoRefusal(
      'model',
      `remix is available for ${REMIX_FAMILIES.join(', ')} only: ${model} has no remix on its wire`,
    );
  }
  if (request.images.length > 0) {
    return videoRefusal(request.images[0].source, `a remix of ${model} takes a prompt only, no images`);
  }
  const source = compatVideoHandleOf(request.remixOf);
  if (!source) return videoRefusal('video_id', 'the video to remix was not made on the compat videos wire');
  const warnings: string[] = [];
  if (request.resolution !== undefined && request.resolution !== source.size) {
    warnings.push(`${resolutionParamOf(request)} was ignored: a remix keeps the source video's size`);
  }
  let sizeEntry: CompatVideoSize | undefined;
  if (family.kind === 'epsilon') {
    sizeEntry = (family.sizes as readonly CompatVideoSize[]).find((entry) => entry.wire === source.size);
    if (!sizeEntry) {
      const sizes = (family.sizes as readonly CompatVideoSize[]).map((entry) => entry.wire).join(', ');
      return videoRefusal(
        'video_id',
        `${model} extends ${sizes} videos only; the source is ${source.size ?? 'of unknown size'}`,
      );
    }
  }
  const seconds =
    family.kind === 'epsilon'
      ? decideVideoSeconds(request, family, sizeEntry?.tier ?? null, false)
      : keptSeconds(request, source.seconds);
  if (!seconds.ok) return seconds;
  const passed = passedFieldsOf(request, family);
  const call: VideoCall = {
    kind: 'video',
    family: family.name,
    mode: 'remix',
    prompt,
    seconds: seconds.seconds,
    resolution: sizeEntry?.tier ?? source.resolution,
    size: source.size,
    aspectRatio: null,
    images: [],
    clips: [],
    subjects: [],
    metadata: passed.metadata,
    extras: passed.extras,
    remixOf: request.remixOf ?? null,
  };
  return { ok: true, call, warnings: [...warnings, ...seconds.warnings, ...passed.warnings] };
}

function keptSeconds(request: VideoRequest, sourceSeconds: number) {
  const warnings =
    request.seconds !== undefined && request.seconds !== sourceSeconds
      ? [`${secondsParamOf(request)} was ignored: a remix keeps the source video's ${sourceSeconds} seconds`]
      : [];
  return { ok: true as const, seconds: sourceSeconds, warnings };
}

/**
 * `delta-*` refuse an input image whose size is not the video's (upstreams.md §2.4). An uploaded image
 * is measured: without a size, aspect ratio or resolution from the client, a family size equal to the
 * image's is chosen; otherwise a mismatch is refused here rather than after the hold. URLs are not
 * fetched, so their size is the upstream's to check.
 */
function fitDeltaImage(
  request: VideoRequest,
  family: CompatVideoFamily,
  frame: Extract<VideoFrameDecision, { ok: true }>,
): VideoFrameDecision {
  const [image] = request.images;
  const dimensions = image ? dataImageDimensions(image.url) : undefined;
  if (!image || !dimensions) return frame;
  const imageSize = `${dimensions.width}x${dimensions.height}`;
  if (imageSize === frame.size) return frame;
  const fitting = (family.sizes as readonly CompatVideoSize[]).find((entry) => entry.wire === imageSize);
  if (fitting && request.resolution === undefined && request.aspectRatio === undefined) {
    return { ...frame, size: fitting.wire, tier: fitting.tier };
  }
  const sizes = (family.sizes as readonly CompatVideoSize[]).map((entry) => entry.wire).join(', ');
  return videoRefusal(
    image.source,
    `${request.model} needs the image to be exactly the video size (${frame.size}); the image is ${imageSize} (sizes: ${sizes})`,
  );
}

function clipAndSubjectRefusal(request: VideoRequest) {
  if (request.clips.length > 0) {
    const clip = request.clips[0];
    return videoRefusal(
      clip.type === 'video' ? 'metadata.video_url' : 'audio',
      `${request.model} takes no reference ${clip.type} on the compat videos wire`,
    );
  }
  if (request.subjects.length > 0) {
    return videoRefusal(
      'subjects',
      `${request.model} has no reference-to-video subjects on the compat videos wire`,
    );
  }
  return undefined;
}

interface PassedFields {
  metadata: SerialisableObject | null;
  extras: SerialisableObject;
  warnings: string[];
}

/**
 * `metadata` goes on where the wire keeps it (the relays); the delta wire has no field, so what the
 * gateway did not read itself is dropped, saying so. The delta extras go on as top-level fields; any
 * other extra is dropped, saying so.
 */
function passedFieldsOf(request: VideoRequest, family: CompatVideoFamily): PassedFields {
  const passed: PassedFields = { metadata: null, extras: {}, warnings: [] };
  const metadata = request.metadata;
  if (metadata && Object.keys(metadata).length > 0) {
    if (family.sendsMetadata) passed.metadata = metadata;
    else {
      const unread = Object.keys(metadata).filter((key) => !PRECEDENCE_METADATA_KEYS.has(key));
      if (unread.length > 0) {
        passed.warnings.push(
          `metadata.${unread.join(', metadata.')} was not sent: the ${request.model} wire has no metadata field`,
        );
      }
    }
  }
  for (const [name, value] of Object.entries(request.extras)) {
    if (family.kind === 'delta' && DELTA_EXTRAS.has(name)) passed.extras[name] = value;
    else passed.warnings.push(`${name} was not sent: ${request.model} has no such field on its wire`);
  }
  return passed;
}
