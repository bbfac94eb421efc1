import type { VideoContentVariant } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';

export const VIDEO_CONTENT_VARIANTS: readonly VideoContentVariant[] = ['video', 'thumbnail', 'spritesheet'];

/** What each variant is when the upstream does not say (upstreams.md §2.4). */
export const DEFAULT_CONTENT_TYPES: Readonly<Record<VideoContentVariant, string>> = {
  video: 'video/mp4',
  thumbnail: 'image/webp',
  spritesheet: 'image/jpeg',
};

/** The `variant` query parameter: `video` when absent; anything else than the three names is a 400. */
export function videoContentVariantOf(value: unknown): VideoContentVariant {
  if (value === undefined) return 'video';
  if (typeof value === 'string' && (VIDEO_CONTENT_VARIANTS as readonly string[]).includes(value)) {
    return value as VideoContentVariant;
  }
  throw GatewayError.invalidRequest(
    `variant must be one of ${VIDEO_CONTENT_VARIANTS.join(', ')}.`,
    'variant',
  );
}
