import { isRecord } from '../sample-arguments.util';
import { decodeBase64Image, inspectImage } from '../uploaded-image.util';
import { EtaAssetLibrary } from './control-plane/eta-asset-library';
import { etaInvalidParameter, etaMissingParameter } from './eta-errors';
import {
  THETA_DEFAULT_RESOLUTION,
  THETA_RATIOS,
  ThetaModelProfile,
  closestThetaRatio,
} from './eta-theta-models';
import { ThetaJobResult } from './eta-theta-request';

/** The 2.0 upstream ids and the resolutions each renders (upstreams.md §6.2). */
const THETA_2_RESOLUTIONS: Readonly<Record<string, readonly string[]>> = {
  'eta-theta-2-0-260128': ['480p', '720p', '1080p'],
  'eta-theta-2-0-fast-260128': ['480p', '720p'],
};
const PROFILE: ThetaModelProfile = {
  version: '2.0',
  images: 'optional',
  references: true,
  audioAndDraft: false,
};
const LIMITS = { images: 9, videos: 3, audios: 3 };
const ROLES: Readonly<Record<string, string[]>> = {
  image_url: ['first_frame', 'last_frame', 'reference_image'],
  video_url: ['reference_video'],
  audio_url: ['reference_audio'],
};
/** The asset type each item type may cite. */
const ASSET_TYPE_OF_ITEM: Readonly<Record<string, string>> = {
  image_url: 'Image',
  video_url: 'Video',
  audio_url: 'Audio',
};
const MIN_DURATION = 4;
const MAX_DURATION = 15;
const DEFAULT_DURATION = 5;
/** What the model picks when asked to decide (`duration: -1`)‡. */
const DECIDED_DURATION = 8;
const MAX_SEED = 2 ** 32 - 1;
const HTTPS_URL = /^https:\/\/\S+$/;
const ASSET_URL = /^asset:\/\/(\S+)$/;
const BOOLEAN_FIELDS = ['camera_fixed', 'watermark', 'return_last_frame', 'generate_audio'];

export function isTheta2Model(model: unknown): boolean {
  return typeof model === 'string' && Object.hasOwn(THETA_2_RESOLUTIONS, model);
}

type Item = { type: string; role: string; width?: number; height?: number };

/**
 * A 2.0 create body (upstreams.md §6.2): content items with roles, at most 9 images, 3 videos and 3
 * audios, audio only beside an image or a video, frames never with references; `asset://<id>` must
 * name an asset of the control plane that is `Active` and of the item's type. Clip lengths are not
 * measured: the simulator fetches no clip.
 */
export function toTheta2Job(
  body: Record<string, unknown>,
  requestId: string,
  assets: EtaAssetLibrary,
): ThetaJobResult {
  const model = body['model'] as string;
  const invalid = (param: string, reason: string): ThetaJobResult => ({
    error: etaInvalidParameter(param, reason, requestId),
  });
  const content = body['content'];
  if (!Array.isArray(content) || content.length === 0)
    return { error: etaMissingParameter('content', requestId) };
  const items: Item[] = [];
  for (const entry of content) {
    const item = readItem(entry, assets);
    if (typeof item === 'string') return invalid('content', item);
    items.push(item);
  }
  const problem = contentProblem(items);
  if (problem) return invalid('content', problem);
  const resolution = body['resolution'] ?? THETA_DEFAULT_RESOLUTION;
  if (typeof resolution !== 'string' || !THETA_2_RESOLUTIONS[model].includes(resolution)) {
    return invalid('resolution', `must be one of ${THETA_2_RESOLUTIONS[model].join(', ')}.`);
  }
  const ratio = ratioOf(body['ratio'], items);
  if (!ratio) return invalid('ratio', `must be one of ${[...THETA_RATIOS, 'adaptive'].join(', ')}.`);
  const duration = body['duration'] ?? DEFAULT_DURATION;
  if (!(duration === -1 || isIntegerIn(duration, MIN_DURATION, MAX_DURATION))) {
    return invalid('duration', `must be an integer from ${MIN_DURATION} to ${MAX_DURATION}, or -1.`);
  }
  const seed = body['seed'] ?? -1;
  if (!isIntegerIn(seed, -1, MAX_SEED)) return invalid('seed', `must be an integer from -1 to ${MAX_SEED}.`);
  const flag = BOOLEAN_FIELDS.find((field) => body[field] !== undefined && typeof body[field] !== 'boolean');
  if (flag) return invalid(flag, 'must be a boolean.');
  return {
    job: {
      model,
      profile: PROFILE,
      resolution,
      ratio,
      duration: duration === -1 ? DECIDED_DURATION : (duration as number),
      seed: seed === -1 ? Math.floor(Math.random() * MAX_SEED) : (seed as number),
      serviceTier: 'default',
      executionExpiresAfter: 172_800,
      returnLastFrame: body['return_last_frame'] === true,
      generateAudio: body['generate_audio'] !== false,
    },
  };
}

function readItem(entry: unknown, assets: EtaAssetLibrary): Item | string {
  if (!isRecord(entry) || typeof entry['type'] !== 'string') return 'each item needs a type.';
  const type = entry['type'];
  if (type === 'text') {
    return typeof entry['text'] === 'string' && entry['text'] !== ''
      ? { type, role: '' }
      : 'text must be a non-empty string.';
  }
  if (!Object.hasOwn(ROLES, type))
    return `each item's type must be one of text, ${Object.keys(ROLES).join(', ')}.`;
  const media = entry[type];
  const url = isRecord(media) ? media['url'] : undefined;
  if (typeof url !== 'string') return `${type}.url is required.`;
  const role = entry['role'] ?? '';
  if (typeof role !== 'string' || (role !== '' && !ROLES[type].includes(role))) {
    return `the role of a ${type} item must be one of ${ROLES[type].join(', ')}.`;
  }
  const asset = ASSET_URL.exec(url);
  if (asset) {
    const problem = assetProblem(asset[1], type, assets);
    return problem ?? { type, role };
  }
  if (HTTPS_URL.test(url)) return { type, role };
  const inspected =
    type === 'image_url' && url.startsWith('data:image/')
      ? inspectImage(decodeBase64Image(url) ?? new Uint8Array())
      : undefined;
  return inspected
    ? { type, role, width: inspected.width, height: inspected.height }
    : `${type}.url must be an https URL${type === 'image_url' ? ', a Base64 data:image/ URL' : ''} or asset://<id>.`;
}

function assetProblem(id: string, type: string, assets: EtaAssetLibrary): string | undefined {
  const asset = assets.cited(id);
  if (!asset) return `the asset ${id} does not exist.`;
  if (asset.fields.status !== 'Active') return `the asset ${id} is ${asset.fields.status}, not Active.`;
  if (asset.fields.assetType !== ASSET_TYPE_OF_ITEM[type]) {
    return `the asset ${id} is of type ${asset.fields.assetType}; a ${type} item needs ${ASSET_TYPE_OF_ITEM[type]}.`;
  }
  return undefined;
}

function contentProblem(items: Item[]): string | undefined {
  const ofType = (type: string) => items.filter((item) => item.type === type);
  const images = ofType('image_url');
  const videos = ofType('video_url').length;
  const audios = ofType('audio_url').length;
  if (ofType('text').length > 1) return 'one text item at most.';
  if (images.length > LIMITS.images) return `at most ${LIMITS.images} images.`;
  if (videos > LIMITS.videos) return `at most ${LIMITS.videos} videos.`;
  if (audios > LIMITS.audios) return `at most ${LIMITS.audios} audios.`;
  if (audios > 0 && images.length === 0 && videos === 0) return 'audio needs at least one image or video.';
  if (images.length === 1 && images[0].role === '')
    images[0].role = videos + audios > 0 ? 'reference_image' : 'first_frame';
  if (images.some((image) => image.role === '')) return 'each of several images needs a role.';
  const frames = images.filter((image) => image.role !== 'reference_image').length;
  if (frames > 0 && (frames < images.length || videos + audios > 0)) {
    return 'first/last-frame mode cannot be combined with reference mode.';
  }
  return undefined;
}

/** The ratio produced: asked, or `adaptive` (or none) following the first image (16:9 without one). */
function ratioOf(value: unknown, items: Item[]): string | undefined {
  if (typeof value === 'string' && THETA_RATIOS.includes(value)) return value;
  if (value !== undefined && value !== 'adaptive') return undefined;
  const first = items.find((item) => item.width && item.height);
  return first?.width && first.height ? closestThetaRatio(first.width, first.height) : '16:9';
}

function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}
