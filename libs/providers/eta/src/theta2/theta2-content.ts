import {
  isJsonObject,
  parseBase64DataUrl,
  videoRefusal,
  type JsonObject,
  type VideoImageRole,
  type VideoRefusal,
} from '@gateway/providers-core';

/** Limits of one 2.0 request's content (upstreams.md §6.2, "2.0 content limits"). */
export const THETA_2_CONTENT_LIMITS = Object.freeze({
  images: 9,
  videos: 3,
  /** Seconds of all reference videos together. */
  minVideoSeconds: 2,
  maxVideoSeconds: 15,
  audios: 3,
  /** Seconds of all reference audios together. */
  maxAudioSeconds: 15,
});

export interface Theta2Image {
  role: VideoImageRole;
  url: string;
}

export interface Theta2Clip {
  type: 'video' | 'audio';
  url: string;
  role: string;
  /** As the client declared it (`video_url.duration`): the gateway does not download clips. */
  seconds: number;
}

export interface Theta2Content {
  prompt: string;
  images: Theta2Image[];
  clips: Theta2Clip[];
}

const ITEM_TYPES = ['text', 'image_url', 'video_url', 'audio_url'] as const;
type ItemType = (typeof ITEM_TYPES)[number];
/** The wire's roles by item type; an image's role becomes the generic one the call keeps. */
const IMAGE_ROLES: Readonly<Record<string, VideoImageRole>> = {
  first_frame: 'first_frame',
  last_frame: 'last_frame',
  reference_image: 'reference',
};
const CLIP_ROLES: Readonly<Record<'video' | 'audio', string>> = {
  video: 'reference_video',
  audio: 'reference_audio',
};
const HTTPS_URL = /^https:\/\/\S+$/i;
/** `asset://<id>`: an uploaded asset (upstreams.md §6.2, 2.0 only). */
const ASSET_URL = /^asset:\/\/[\w.-]+$/;

/**
 * Reads a 2.0 request's `content[]` (upstreams.md §6.2) and checks it against the wire's rules, each
 * refusal naming the item at fault:
 * - items of type `text` (one at most), `image_url`, `video_url`, `audio_url`, each URL in the object
 *   of its type (`image_url.url` …); images as https URLs, Base64 `data:image/…` URLs or `asset://`
 *   ids, videos and audios as https URLs or `asset://` ids;
 * - roles: images `first_frame`, `last_frame` or `reference_image`, videos `reference_video`, audios
 *   `reference_audio`; an image without one is the first frame when it is the only input, a
 *   reference otherwise; first/last frames never go with references (reference images, videos or audios);
 * - at most 9 images; at most 3 videos of 2–15 s together; at most 3 audios of 15 s at most together,
 *   and audio only beside an image or a video; a text or an image or a video at all.
 * The gateway never downloads a clip to measure it: each video and audio declares its length as
 * `duration` (seconds) in its URL object (`{"video_url": {"url": …, "duration": 5}}`); a clip
 * without one is refused. The upstream measures the real clips again.
 */
export function readTheta2Content(
  content: unknown,
  model: string,
): { ok: true; content: Theta2Content } | VideoRefusal {
  if (!Array.isArray(content) || content.length === 0) {
    return videoRefusal(
      'content',
      'content must be a non-empty array of text, image_url, video_url and audio_url items',
    );
  }
  let prompt: string | undefined;
  const images: Array<Theta2Image & { explicit: boolean }> = [];
  const clips: Theta2Clip[] = [];
  for (const [index, item] of content.entries()) {
    const at = `content[${index}]`;
    if (!isJsonObject(item) || !(ITEM_TYPES as readonly unknown[]).includes(item.type)) {
      return videoRefusal(`${at}.type`, `${at}.type must be one of ${ITEM_TYPES.join(', ')}`);
    }
    const type = item.type as ItemType;
    if (type === 'text') {
      if (prompt !== undefined) return videoRefusal(at, `content may hold one text item; ${at} is a second`);
      if (typeof item.text !== 'string' || item.text.trim() === '') {
        return videoRefusal(`${at}.text`, `${at}.text must be a non-empty string`);
      }
      prompt = item.text;
      continue;
    }
    const media = isJsonObject(item[type]) ? (item[type] as JsonObject) : undefined;
    const url = media?.url;
    if (typeof url !== 'string') return videoRefusal(`${at}.${type}.url`, `${at}.${type}.url is required`);
    if (type === 'image_url') {
      const image = imageOf(item, url, at, model);
      if (!image.ok) return image;
      images.push(image.image);
      continue;
    }
    const clip = clipOf(item, media as JsonObject, type === 'video_url' ? 'video' : 'audio', at, model);
    if (!clip.ok) return clip;
    clips.push(clip.clip);
  }
  const rolesRefusal = assignImageRoles(images, clips);
  if (rolesRefusal) return rolesRefusal;
  const limitsRefusal = limitsRefusalOf(images.length, clips);
  if (limitsRefusal) return limitsRefusal;
  if (prompt === undefined && images.length === 0 && !clips.some((clip) => clip.type === 'video')) {
    return videoRefusal('content', 'content needs a text item, an image or a video');
  }
  return {
    ok: true,
    content: { prompt: prompt ?? '', images: images.map(({ role, url }) => ({ role, url })), clips },
  };
}

function imageOf(
  item: JsonObject,
  url: string,
  at: string,
  model: string,
): { ok: true; image: Theta2Image & { explicit: boolean } } | VideoRefusal {
  if (!isImageForm(url)) {
    return videoRefusal(
      `${at}.image_url.url`,
      `${at}.image_url.url must be an https URL, a Base64 data:image/ URL or asset://<id> for ${model}`,
    );
  }
  const role = item.role;
  if (role === undefined || role === null)
    return { ok: true, image: { role: 'reference', url, explicit: false } };
  if (typeof role !== 'string' || !Object.hasOwn(IMAGE_ROLES, role)) {
    return videoRefusal(
      `${at}.role`,
      `${at}.role must be one of ${Object.keys(IMAGE_ROLES).join(', ')} for an image`,
    );
  }
  return { ok: true, image: { role: IMAGE_ROLES[role], url, explicit: true } };
}

function clipOf(
  item: JsonObject,
  media: JsonObject,
  type: 'video' | 'audio',
  at: string,
  model: string,
): { ok: true; clip: Theta2Clip } | VideoRefusal {
  const field = `${at}.${type}_url`;
  const url = media.url as string;
  if (!HTTPS_URL.test(url) && !ASSET_URL.test(url)) {
    return videoRefusal(`${field}.url`, `${field}.url must be an https URL or asset://<id> for ${model}`);
  }
  const role = item.role ?? CLIP_ROLES[type];
  if (role !== CLIP_ROLES[type])
    return videoRefusal(`${at}.role`, `${at}.role must be ${CLIP_ROLES[type]} for a ${type}`);
  const seconds = media.duration;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) {
    return videoRefusal(
      `${field}.duration`,
      `${field}.duration is required: the ${type}'s length in seconds (the gateway checks the totals before it holds and never downloads a clip)`,
    );
  }
  return { ok: true, clip: { type, url, role: CLIP_ROLES[type], seconds } };
}

function isImageForm(url: string): boolean {
  if (HTTPS_URL.test(url) || ASSET_URL.test(url)) return true;
  const dataUrl = parseBase64DataUrl(url);
  return dataUrl !== undefined && dataUrl.mimeType.toLowerCase().startsWith('image/') && dataUrl.data !== '';
}

/**
 * An image without a role is the first frame when it is the only input, else a reference; then
 * first/last-frame mode (one first frame, at most one last frame) and reference mode never mix.
 */
function assignImageRoles(
  images: Array<Theta2Image & { explicit: boolean }>,
  clips: Theta2Clip[],
): VideoRefusal | undefined {
  if (images.length === 1 && clips.length === 0 && !images[0].explicit) images[0].role = 'first_frame';
  const frames = images.filter((image) => image.role !== 'reference');
  if (frames.length === 0) return undefined;
  if (frames.length < images.length || clips.length > 0) {
    return videoRefusal(
      'content',
      'first_frame and last_frame cannot be combined with reference_image, reference_video or reference_audio items',
    );
  }
  const count = (role: VideoImageRole) => frames.filter((image) => image.role === role).length;
  if (count('first_frame') > 1 || count('last_frame') > 1) {
    return videoRefusal('content', 'content may hold one first_frame and one last_frame image at most');
  }
  if (count('first_frame') === 0)
    return videoRefusal('content', 'a last_frame image needs a first_frame image');
  return undefined;
}

function limitsRefusalOf(imageCount: number, clips: Theta2Clip[]): VideoRefusal | undefined {
  const limits = THETA_2_CONTENT_LIMITS;
  const videos = clips.filter((clip) => clip.type === 'video');
  const audios = clips.filter((clip) => clip.type === 'audio');
  const total = (of: Theta2Clip[]) => of.reduce((sum, clip) => sum + clip.seconds, 0);
  if (imageCount > limits.images) {
    return videoRefusal('content', `content may hold at most ${limits.images} images; it has ${imageCount}`);
  }
  if (videos.length > limits.videos) {
    return videoRefusal(
      'content',
      `content may hold at most ${limits.videos} videos; it has ${videos.length}`,
    );
  }
  const videoSeconds = total(videos);
  if (videos.length > 0 && (videoSeconds < limits.minVideoSeconds || videoSeconds > limits.maxVideoSeconds)) {
    return videoRefusal(
      'content',
      `the videos must last ${limits.minVideoSeconds} to ${limits.maxVideoSeconds} seconds together; they last ${videoSeconds}`,
    );
  }
  if (audios.length > limits.audios) {
    return videoRefusal(
      'content',
      `content may hold at most ${limits.audios} audios; it has ${audios.length}`,
    );
  }
  const audioSeconds = total(audios);
  if (audioSeconds > limits.maxAudioSeconds) {
    return videoRefusal(
      'content',
      `the audios may last ${limits.maxAudioSeconds} seconds at most together; they last ${audioSeconds}`,
    );
  }
  if (audios.length > 0 && imageCount === 0 && videos.length === 0) {
    return videoRefusal('content', 'an audio needs at least one image or video beside it');
  }
  return undefined;
}
