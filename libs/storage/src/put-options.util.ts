import type { PutObjectOptions } from './object-store';

// A bare media type: it is served back as Content-Type, so nothing that could split or extend a header.
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;
const MS_PER_HOUR = 3_600_000;

export interface ResolvedPutOptions {
  contentType: string;
  expiresAtSeconds: number;
}

/** Checks what every backend stores and turns the expiry into the whole second the id carries. */
export function resolvePutOptions(
  options: PutObjectOptions,
  retentionHours: number,
  nowMs: number,
): ResolvedPutOptions {
  const contentType = options.contentType.toLowerCase();
  if (!MEDIA_TYPE.test(contentType)) {
    throw new TypeError(`content type must be a plain type/subtype (got "${options.contentType}")`);
  }
  const expiresAtMs = options.expiresAt?.getTime() ?? nowMs + retentionHours * MS_PER_HOUR;
  if (!(expiresAtMs > nowMs)) throw new RangeError('an object must expire in the future');
  return { contentType, expiresAtSeconds: Math.ceil(expiresAtMs / 1000) };
}
