import { isJsonObject, type JsonValue, type SerialisableObject } from '@gateway/providers-core';

/**
 * What the gateway stores for a submitted compat video: the upstream's video id, and what the call
 * asked (seconds, wire size, price tier), which a remix of it keeps and usage falls back on.
 */
export interface CompatVideoHandle extends SerialisableObject {
  videoId: string;
  seconds: number;
  size: string | null;
  resolution: string | null;
}

/** The stored handle, checked; undefined for anything this adapter did not write. */
export function compatVideoHandleOf(handle: JsonValue | undefined): CompatVideoHandle | undefined {
  if (
    isJsonObject(handle) &&
    typeof handle.videoId === 'string' &&
    handle.videoId !== '' &&
    typeof handle.seconds === 'number' &&
    (handle.size === null || typeof handle.size === 'string') &&
    (handle.resolution === null || typeof handle.resolution === 'string')
  ) {
    return {
      videoId: handle.videoId,
      seconds: handle.seconds,
      size: handle.size,
      resolution: handle.resolution,
    };
  }
  return undefined;
}

/** The handle of a running task, or a loud failure: a row written by another version of this adapter. */
export function requireCompatVideoHandle(handle: JsonValue): CompatVideoHandle {
  const checked = compatVideoHandleOf(handle);
  if (!checked) throw new TypeError('not a compat video handle');
  return checked;
}
