import {
  joinBaseUrl,
  type ImageEditCall,
  type ImageGenerationCall,
  type ImageInput,
  type ImageSize,
} from '@gateway/providers-core';
import { compatImageFamilyOf } from './compat-image-families';

export function compatImagesUrl(baseUrl: string, route: 'generations' | 'edits'): string {
  return joinBaseUrl(baseUrl, `/v1/images/${route}`);
}

const sizeText = (size: ImageSize): string =>
  size.kind === 'pixels' ? `${size.width}x${size.height}` : size.tier;

/**
 * `img-*` refuse `response_format` (they answer Base64 only), so it is sent only to the families that
 * take it and to models without rules (as sent); the gateway converts whatever comes back.
 */
function wireResponseFormatOf(call: ImageGenerationCall): string | undefined {
  const family = compatImageFamilyOf(call.family);
  if (family && !family.takesResponseFormat) return undefined;
  return call.responseFormat === 'url' ? 'url' : 'b64_json';
}

/** The fields generations and edits share, in wire names; the plan already dropped what a family lacks. */
function commonFieldsOf(call: ImageGenerationCall): Record<string, string | number> {
  const fields: Record<string, string | number> = {
    model: call.upstreamModel,
    prompt: call.prompt,
    n: call.n,
  };
  if (call.size) fields.size = sizeText(call.size);
  if (call.quality !== undefined) fields.quality = call.quality;
  if (call.style !== undefined) fields.style = call.style;
  if (call.background !== undefined) fields.background = call.background;
  const responseFormat = wireResponseFormatOf(call);
  if (responseFormat) fields.response_format = responseFormat;
  return fields;
}

const referenceOf = (image: ImageInput): string =>
  image.kind === 'bytes' ? image.bytes.toString('base64') : image.url;

/** `POST /v1/images/generations` (§2.3): JSON, with Base64 reference images in `image`. */
export function toCompatGenerationsBody(call: ImageGenerationCall): string {
  const body: Record<string, unknown> = commonFieldsOf(call);
  if (call.images.length > 0) body.image = call.images.map(referenceOf);
  return JSON.stringify(body);
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

function uploadOf(image: ImageInput, name: string): [Blob, string] {
  // The plan refuses edits whose images are URLs: adapters never download.
  if (image.kind !== 'bytes') throw new Error('compat edits upload bytes only');
  const extension = EXTENSIONS[image.contentType] ?? 'bin';
  return [new Blob([new Uint8Array(image.bytes)], { type: image.contentType }), `${name}.${extension}`];
}

export interface MultipartBody {
  body: Buffer;
  contentType: string;
}

/**
 * `POST /v1/images/edits` (§2.3): the common fields as text parts, one `image` file or repeated
 * `image[]` files, and the optional `mask`. Serialised by the runtime's own FormData encoder (undici,
 * through `Response`), which writes the boundary and the part headers, into a Buffer for the client.
 */
export async function toCompatEditsForm(call: ImageEditCall): Promise<MultipartBody> {
  const form = new FormData();
  for (const [name, value] of Object.entries(commonFieldsOf(call))) form.append(name, String(value));
  const imageField = call.images.length === 1 ? 'image' : 'image[]';
  call.images.forEach((image, index) => form.append(imageField, ...uploadOf(image, `image-${index + 1}`)));
  if (call.mask) form.append('mask', ...uploadOf(call.mask, 'mask'));
  const encoded = new Response(form);
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? 'multipart/form-data',
  };
}
