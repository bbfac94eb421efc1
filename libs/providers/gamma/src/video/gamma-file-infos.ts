import {
  isJsonObject,
  type JsonValue,
  type SerialisableObject,
  type VideoImageRole,
  type VideoRequest,
  type VideoRuled,
  videoRefusal,
} from '@gateway/providers-core';
import { isHttpUrl, metadataField, oneOf, resolved, wireKeyOf } from './gamma-plan.util';
import type { GammaInputCount } from './gamma-scene';

/** `FileInfos` ≤ 3 items (upstreams.md §5.4, §5.7). */
export const GAMMA_MAX_FILES = 3;
const TYPES = ['File', 'Url'] as const;
const CATEGORIES = ['Image', 'Video'] as const;
const REFERENCE_TYPES = ['feature', 'base'] as const;

export interface GammaFiles {
  /** The wire's `FileInfos`, every key PascalCase. */
  fileInfos: SerialisableObject[];
  lastFrameUrl?: string;
  /** The URLs the task was given, for the stored call. */
  images: Array<{ role: VideoImageRole; url: string }>;
  /** Reference videos and how each is referenced (`feature`, `base`), when said. */
  videos: Array<{ url: string; role: string | null }>;
  counts: GammaInputCount;
}

/**
 * `FileInfos` from `metadata.file_infos[]` key by key (snake_case → PascalCase); without it, built
 * from the images (Category `Image`, Type `Url`) and `metadata.video_url` or a video clip (Category
 * `Video`). The last frame (`metadata.last_frame_url`) becomes `LastFrameUrl` and needs a first frame.
 * The wire takes files by URL or by its own FileId, never as bytes.
 */
export function gammaFilesOf(request: VideoRequest, warnings: string[]): VideoRuled<GammaFiles> {
  const lastFrames = request.images.filter((image) => image.role === 'last_frame');
  if (lastFrames.length > 1) return videoRefusal(lastFrames[1].source, 'only one last frame can be given');
  const lastFrame = lastFrames[0];
  if (lastFrame && !isHttpUrl(lastFrame.url)) {
    return videoRefusal(lastFrame.source, `${lastFrame.source} must be an http(s) URL`);
  }
  if (request.clips.some((clip) => clip.type === 'audio')) {
    warnings.push('audio clips are ignored: gamma takes no audio input');
  }
  const native = metadataField(request.metadata, 'file_infos');
  const files = native === undefined ? builtFiles(request) : nativeFiles(native, request, warnings);
  if (!files.ok) return files;
  const { fileInfos } = files.value;
  if (fileInfos.length > GAMMA_MAX_FILES) {
    return videoRefusal(
      native === undefined ? 'images' : 'metadata.file_infos',
      `at most ${GAMMA_MAX_FILES} images and videos together (the wire's FileInfos)`,
    );
  }
  const counts = {
    images: fileInfos.filter((info) => info.Category === 'Image').length,
    videos: fileInfos.filter((info) => info.Category === 'Video').length,
  };
  if (lastFrame && counts.images === 0) {
    return videoRefusal(lastFrame.source, `${lastFrame.source} needs a first frame in image or images`);
  }
  return resolved({
    ...files.value,
    ...(lastFrame ? { lastFrameUrl: lastFrame.url } : {}),
    images: [
      ...files.value.images,
      ...(lastFrame ? [{ role: 'last_frame' as const, url: lastFrame.url }] : []),
    ],
    counts,
  });
}

type FileSet = Pick<GammaFiles, 'fileInfos' | 'images' | 'videos'>;

function builtFiles(request: VideoRequest): VideoRuled<FileSet> {
  const images = request.images.filter((image) => image.role !== 'last_frame');
  const notUrl = images.find((image) => !isHttpUrl(image.url));
  if (notUrl) {
    return videoRefusal(
      notUrl.source,
      `${notUrl.source} must be an http(s) URL: gamma takes no uploaded or Base64 images ` +
        '(metadata.file_infos can name a file the upstream holds by its FileId)',
    );
  }
  const videoUrl = metadataField(request.metadata, 'video_url');
  if (videoUrl !== undefined && !isHttpUrl(videoUrl)) {
    return videoRefusal('metadata.video_url', 'metadata.video_url must be an http(s) URL');
  }
  // A clip's role, when it is one of the wire's, says how the video is referenced (§5.8 `refer_type`).
  const videos = new Map<string, string | undefined>();
  for (const clip of request.clips) {
    if (clip.type === 'video') videos.set(clip.url, oneOf(clip.role, REFERENCE_TYPES));
  }
  if (videoUrl !== undefined && !videos.has(videoUrl)) videos.set(videoUrl, undefined);
  if ([...videos.keys()].some((url) => !isHttpUrl(url))) {
    return videoRefusal('metadata.video_url', 'a reference video must be an http(s) URL');
  }
  return resolved({
    fileInfos: [
      ...images.map((image) => ({ Type: 'Url', Category: 'Image', Url: image.url })),
      ...[...videos].map(([url, referenceType]) => ({
        Type: 'Url',
        Category: 'Video',
        Url: url,
        ...(referenceType === undefined ? {} : { ReferenceType: referenceType }),
      })),
    ],
    images: images.map(({ role, url }) => ({ role, url })),
    videos: [...videos].map(([url, referenceType]) => ({ url, role: referenceType ?? null })),
  });
}

function nativeFiles(native: JsonValue, request: VideoRequest, warnings: string[]): VideoRuled<FileSet> {
  if (!Array.isArray(native))
    return videoRefusal('metadata.file_infos', 'metadata.file_infos must be an array');
  if (native.length > GAMMA_MAX_FILES) {
    return videoRefusal('metadata.file_infos', `metadata.file_infos takes at most ${GAMMA_MAX_FILES} items`);
  }
  const ignored =
    request.images.some((image) => image.role !== 'last_frame') ||
    request.clips.some((clip) => clip.type === 'video') ||
    metadataField(request.metadata, 'video_url') !== undefined;
  if (ignored)
    warnings.push('image, images and metadata.video_url are ignored: metadata.file_infos gives the files');
  const fileInfos: SerialisableObject[] = [];
  for (const [index, item] of native.entries()) {
    const info = fileInfoOf(item, `metadata.file_infos[${index}]`);
    if (!info.ok) return info;
    fileInfos.push(info.value);
  }
  const byUrl = (category: string) =>
    fileInfos.filter(
      (info): info is SerialisableObject & { Url: string } =>
        info.Category === category && typeof info.Url === 'string',
    );
  return resolved({
    fileInfos,
    images: byUrl('Image').map((info) => ({ role: 'reference' as const, url: info.Url })),
    videos: byUrl('Video').map((info) => ({
      url: info.Url,
      role: typeof info.ReferenceType === 'string' ? info.ReferenceType : null,
    })),
  });
}

/** One native item, its keys renamed and the ones the wire constrains checked. */
function fileInfoOf(item: JsonValue, param: string): VideoRuled<SerialisableObject> {
  if (!isJsonObject(item)) return videoRefusal(param, `${param} must be an object`);
  const info: SerialisableObject = {};
  for (const [key, value] of Object.entries(item as SerialisableObject)) {
    const wireKey = wireKeyOf(key);
    if (wireKey === undefined) return videoRefusal(param, `${param} keys must be snake_case (e.g. file_id)`);
    info[wireKey] = value;
  }
  const type = oneOf(info.Type, TYPES);
  if (!type) return videoRefusal(`${param}.type`, `${param}.type must be one of ${TYPES.join(', ')}`);
  const category = oneOf(info.Category, CATEGORIES);
  if (!category)
    return videoRefusal(`${param}.category`, `${param}.category must be one of ${CATEGORIES.join(', ')}`);
  if (type === 'Url' && !isHttpUrl(info.Url))
    return videoRefusal(`${param}.url`, `${param}.url must be an http(s) URL`);
  if (type === 'File' && (typeof info.FileId !== 'string' || info.FileId.trim() === '')) {
    return videoRefusal(
      `${param}.file_id`,
      `${param}.file_id must name the upstream's file when type is File`,
    );
  }
  let referenceType: string | undefined;
  if (info.ReferenceType !== undefined) {
    referenceType = oneOf(info.ReferenceType, REFERENCE_TYPES);
    if (!referenceType) {
      return videoRefusal(
        `${param}.reference_type`,
        `${param}.reference_type must be one of ${REFERENCE_TYPES.join(', ')}`,
      );
    }
  }
  return resolved({
    ...info,
    Type: type,
    Category: category,
    ...(referenceType === undefined ? {} : { ReferenceType: referenceType }),
  });
}
