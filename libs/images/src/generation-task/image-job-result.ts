import { isJsonObject } from '@gateway/providers-core';

/** One image of a finished job: the object-store id of its bytes, and the prompt as the upstream rewrote it. */
export interface StoredJobImage {
  objectId: string;
  revisedPrompt?: string;
}

/**
 * What a completed image job made, kept as the row's handle (`tasks.upstream_handle`, written with its
 * terminal transition): the images are in the object store whatever the client asked for, and its
 * answer renders them as `url` or `b64_json` on each read. `created` is the synchronous answer's.
 */
export interface ImageJobResult {
  created: number;
  images: StoredJobImage[];
  warnings: string[];
}

export function toStoredJobResult(result: ImageJobResult): Record<string, unknown> {
  return {
    created: result.created,
    images: result.images.map((image) => ({
      objectId: image.objectId,
      ...(image.revisedPrompt === undefined ? {} : { revisedPrompt: image.revisedPrompt }),
    })),
    warnings: result.warnings,
  };
}

export function fromStoredJobResult(handle: unknown): ImageJobResult | undefined {
  if (!isJsonObject(handle) || typeof handle['created'] !== 'number' || !Array.isArray(handle['images'])) {
    return undefined;
  }
  const images: StoredJobImage[] = [];
  for (const image of handle['images']) {
    if (!isJsonObject(image) || typeof image['objectId'] !== 'string') return undefined;
    const revisedPrompt = image['revisedPrompt'];
    images.push({
      objectId: image['objectId'],
      ...(typeof revisedPrompt === 'string' ? { revisedPrompt } : {}),
    });
  }
  const warnings = Array.isArray(handle['warnings'])
    ? handle['warnings'].filter((warning): warning is string => typeof warning === 'string')
    : [];
  return { created: handle['created'], images, warnings };
}
