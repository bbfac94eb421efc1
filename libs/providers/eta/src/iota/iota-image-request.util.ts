import type { ImageGenerationCall, ImageInput } from '@gateway/providers-core';
import { iotaSizeTier } from './iota-image-size.util';

/**
 * The body of `POST /images/generations` (upstreams.md §6.3). More than one image is the wire's group
 * mode: `sequential_image_generation: auto` with `max_images` = n, where the upstream may return a
 * smaller group. `watermark` is sent only when the client set it (the wire's default is true).
 */
export function toIotaRequestBody(call: ImageGenerationCall): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: call.upstreamModel,
    prompt: call.prompt,
    response_format: call.responseFormat === 'b64' ? 'b64_json' : 'url',
  };
  if (call.size) body.size = iotaSizeTier(call.size);
  if (call.images.length > 0) body.image = call.images.map(toIotaImageReference);
  if (call.n > 1) {
    body.sequential_image_generation = 'auto';
    body.sequential_image_generation_options = { max_images: call.n };
  }
  if (call.watermark !== undefined) body.watermark = call.watermark;
  return body;
}

/** A reference as the wire takes it: a `data:` URL of the bytes, or the client's URL as given. */
function toIotaImageReference(image: ImageInput): string {
  return image.kind === 'url'
    ? image.url
    : `data:${image.contentType};base64,${image.bytes.toString('base64')}`;
}
