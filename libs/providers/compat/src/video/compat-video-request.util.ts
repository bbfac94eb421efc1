import {
  joinBaseUrl,
  parseBase64DataUrl,
  type JsonValue,
  type SerialisableObject,
  type VideoCall,
} from '@gateway/providers-core';
import { compatVideoFamilyNamed } from './compat-video-families';
import { requireCompatVideoHandle } from './compat-video-handle';

/** `{base}/v1/videos` plus a path under it (`/{id}`, `/{id}/content`, `/characters`). */
export function compatVideosUrl(baseUrl: string, path = ''): string {
  return joinBaseUrl(baseUrl, `/v1/videos${path}`);
}

export function videoPath(videoId: string, suffix = ''): string {
  return `/${encodeURIComponent(videoId)}${suffix}`;
}

/** A create or remix as it goes on the wire. */
export interface CompatVideoSubmission {
  path: string;
  body: Buffer | string;
  contentType: string;
}

const JSON_TYPE = 'application/json';
const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/**
 * The create of upstreams.md §2.4 for a planned call, or its remix (`POST /v1/videos/{id}/remix`,
 * `{prompt, model}`). JSON, except where the family's wire needs files: `zeta-video-*` always
 * (multipart `input_reference`, repeated), `delta-*` when its image is held as bytes (a `data:` URI;
 * a URL goes as `input_reference: {image_url}`). `epsilon_*` and open families send `images[]`.
 * `seconds` is a string on this wire.
 */
export async function toCompatVideoSubmission(
  call: VideoCall,
  upstreamModel: string,
): Promise<CompatVideoSubmission> {
  if (call.mode === 'remix') {
    const source = requireCompatVideoHandle(call.remixOf);
    return {
      path: videoPath(source.videoId, '/remix'),
      body: JSON.stringify({ prompt: call.prompt, model: upstreamModel }),
      contentType: JSON_TYPE,
    };
  }
  const family = compatVideoFamilyNamed(call.family);
  if (!family) throw new TypeError(`not a compat video family: ${call.family}`);
  const fields: SerialisableObject = {
    model: upstreamModel,
    prompt: call.prompt,
    seconds: String(call.seconds),
  };
  if (call.size !== null) fields.size = call.size;
  if (call.aspectRatio !== null) fields.aspect_ratio = call.aspectRatio;
  if (call.metadata !== null) fields.metadata = call.metadata;
  Object.assign(fields, call.extras);
  const urls = call.images.map((image) => image.url);
  const uploads =
    family.imageTransport === 'upload' ||
    (family.imageTransport === 'delta' && urls.some((url) => parseBase64DataUrl(url) !== undefined));
  if (uploads) return toMultipart(fields, urls);
  if (urls.length > 0) {
    if (family.imageTransport === 'delta') fields.input_reference = { image_url: urls[0] };
    else fields.images = urls;
  }
  return { path: '', body: JSON.stringify(fields), contentType: JSON_TYPE };
}

/**
 * The fields as text parts (objects as JSON text) and each image as an `input_reference` file,
 * serialised by the runtime's own FormData encoder (undici, through `Response`).
 */
async function toMultipart(fields: SerialisableObject, urls: string[]): Promise<CompatVideoSubmission> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, textOf(value));
  urls.forEach((url, index) => {
    const dataUrl = parseBase64DataUrl(url);
    // The rules refuse image URLs for families that upload: adapters never download.
    if (!dataUrl) throw new TypeError('compat video uploads take data: URIs only');
    const extension = EXTENSIONS[dataUrl.mimeType.toLowerCase()] ?? 'bin';
    const bytes = new Uint8Array(Buffer.from(dataUrl.data, 'base64'));
    form.append(
      'input_reference',
      new Blob([bytes], { type: dataUrl.mimeType }),
      `image-${index + 1}.${extension}`,
    );
  });
  const encoded = new Response(form);
  return {
    path: '',
    body: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? 'multipart/form-data',
  };
}

function textOf(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `POST /v1/videos/characters`: the display name and the clip, as multipart. */
export async function toCharacterForm(
  name: string,
  clip: { bytes: Buffer; contentType: string },
): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  form.append('name', name);
  const extension = clip.contentType.includes('webm')
    ? 'webm'
    : clip.contentType.includes('quicktime')
      ? 'mov'
      : 'mp4';
  form.append(
    'video',
    new Blob([new Uint8Array(clip.bytes)], { type: clip.contentType }),
    `character.${extension}`,
  );
  const encoded = new Response(form);
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? 'multipart/form-data',
  };
}
