import {
  unreadFieldWarnings,
  videoRefusal,
  type JsonValue,
  type SerialisableObject,
  type VideoCall,
  type VideoPlan,
  type VideoRequest,
  type VideoRuled,
  type VideoRules,
} from '@gateway/providers-core';
import { readTheta2Content, type Theta2Content } from './theta2-content';
import { theta2ModelOf, type Theta2Model } from './theta2-video-models';

/** `metadata.duration` of 2.0 (§6.2): whole seconds 4 to 15, or -1 (the model decides); 5 when absent. */
const MIN_SECONDS = 4;
const MAX_SECONDS = 15;
const MODEL_DECIDES = -1;
const DEFAULT_SECONDS = 5;
const DEFAULT_RESOLUTION = '720p';
/** `metadata.ratio` of 2.0: the wire's ratios, `adaptive` following the inputs. */
const RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive'];
/** `metadata` booleans sent as the wire's own fields. */
const PASSED_BOOLEANS = ['camera_fixed', 'watermark', 'generate_audio', 'return_last_frame'];
const MAX_SEED = 2 ** 32 - 1;
const READ_METADATA_KEYS: ReadonlySet<string> = new Set([
  'duration',
  'ratio',
  'resolution',
  'seed',
  ...PASSED_BOOLEANS,
]);

/**
 * The rules of `eta-theta-2-0-260128` and `eta-theta-2-0-fast-260128` (and their compatible names),
 * served at `POST /v1/video/generations` (the style `official`: `extras.content` holds the client's
 * `content[]`, read by readTheta2Content):
 * - `metadata.duration`: 4–15 whole seconds or -1 (model decides), default 5;
 * - `metadata.ratio`: 16:9, 4:3, 1:1, 3:4, 9:16, 21:9, adaptive (the upstream's default when absent);
 * - `metadata.resolution`: 480p, 720p, 1080p (fast: 480p, 720p), default 720p; case-insensitive;
 * - `metadata.seed` (-1 … 2³²−1), `camera_fixed`, `watermark`, `generate_audio`, `return_last_frame`
 *   pass on; other metadata and top-level fields are named in a warning.
 */
export const theta2VideoRules: VideoRules = {
  servesVideoModel: (model) => theta2ModelOf(model) !== undefined,
  planVideo: planTheta2Video,
};

export function planTheta2Video(request: VideoRequest): VideoPlan {
  const { model } = request;
  const theta = theta2ModelOf(model);
  if (!theta) return videoRefusal('model', `${model} is not a theta 2.0 model`);
  if (request.style !== 'official' || request.remixOf !== undefined) {
    return videoRefusal('model', `${model} is served at POST /v1/video/generations, with content[]`);
  }
  const { content: rawContent, ...otherExtras } = request.extras;
  const content = readTheta2Content(rawContent, model);
  if (!content.ok) return content;
  const metadata = request.metadata ?? {};
  const seconds = secondsOf(metadata.duration, model);
  if (!seconds.ok) return seconds;
  const resolution = resolutionOf(metadata.resolution, theta, model);
  if (!resolution.ok) return resolution;
  const ratio = metadata.ratio;
  if (ratio !== undefined && (typeof ratio !== 'string' || !RATIOS.includes(ratio))) {
    return videoRefusal('metadata.ratio', `metadata.ratio must be one of ${RATIOS.join(', ')} for ${model}`);
  }
  const extras = extrasOf(metadata, model);
  if (!extras.ok) return extras;
  const warnings = unreadFieldWarnings(model, otherExtras, metadata, READ_METADATA_KEYS);
  return {
    ok: true,
    call: callOf(content.content, {
      seconds: seconds.value,
      resolution: resolution.value,
      aspectRatio: ratio ?? null,
      extras: extras.value,
    }),
    warnings,
  };
}

function callOf(
  content: Theta2Content,
  planned: Pick<VideoCall, 'seconds' | 'resolution' | 'aspectRatio' | 'extras'>,
): VideoCall {
  const roles = new Set(content.images.map((image) => image.role));
  const mode: VideoCall['mode'] =
    content.clips.length > 0 || roles.has('reference')
      ? 'reference'
      : roles.has('last_frame')
        ? 'first_last'
        : roles.has('first_frame')
          ? 'first_frame'
          : 'text';
  return {
    kind: 'video',
    family: 'theta',
    mode,
    prompt: content.prompt,
    ...planned,
    size: null,
    images: content.images.map(({ role, url }) => ({ role, url })),
    clips: content.clips.map(({ type, url, role }) => ({ type, url, role })),
    subjects: [],
    metadata: null,
    remixOf: null,
  };
}

function secondsOf(value: JsonValue | undefined, model: string): VideoRuled<number> {
  if (value === undefined) return { ok: true, value: DEFAULT_SECONDS };
  const valid =
    typeof value === 'number' &&
    Number.isInteger(value) &&
    (value === MODEL_DECIDES || (value >= MIN_SECONDS && value <= MAX_SECONDS));
  return valid
    ? { ok: true, value }
    : videoRefusal(
        'metadata.duration',
        `metadata.duration must be a whole number from ${MIN_SECONDS} to ${MAX_SECONDS}, or ${MODEL_DECIDES} to let ${model} decide`,
      );
}

function resolutionOf(value: JsonValue | undefined, theta: Theta2Model, model: string): VideoRuled<string> {
  if (value === undefined) return { ok: true, value: DEFAULT_RESOLUTION };
  const tier = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return theta.resolutions.includes(tier)
    ? { ok: true, value: tier }
    : videoRefusal(
        'metadata.resolution',
        `metadata.resolution must be one of ${theta.resolutions.join(', ')} for ${model}`,
      );
}

function extrasOf(metadata: SerialisableObject, model: string): VideoRuled<SerialisableObject> {
  const extras: SerialisableObject = {};
  const seed = metadata.seed;
  if (seed !== undefined) {
    if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < -1 || seed > MAX_SEED) {
      return videoRefusal(
        'metadata.seed',
        `metadata.seed must be an integer from -1 to ${MAX_SEED} for ${model}`,
      );
    }
    extras.seed = seed;
  }
  for (const field of PASSED_BOOLEANS) {
    const value = metadata[field];
    if (value === undefined) continue;
    if (typeof value !== 'boolean')
      return videoRefusal(`metadata.${field}`, `metadata.${field} must be a boolean`);
    extras[field] = value;
  }
  return { ok: true, value: extras };
}
