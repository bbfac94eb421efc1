import { EncodedImage } from './image-bytes.util';
import { randomAlphanumeric } from './random-id.util';

/** A generated file that a result URL points at, until it expires. */
export interface ResultFile {
  image: EncodedImage;
  expiresAtMs: number;
}

export type ResultFileLookup = { found: ResultFile } | { missing: 'unknown' | 'expired' };

const FILE_NAME_ID_LENGTH = 24;
/** Bound on remembered files, so a long benchmark run keeps a flat memory profile. */
const CAPACITY = 20_000;
const EXTENSIONS: Record<EncodedImage['format'], string> = { png: 'png', jpeg: 'jpeg', webp: 'webp' };

/**
 * The files behind the result URLs every wire hands out (`{base}/files/…`, upstreams.md §0). Entries
 * point at the shared image cache, so a file costs a few dozen bytes; the oldest are forgotten first.
 */
export class ResultFileStore {
  private readonly files = new Map<string, ResultFile>();

  /** Remembers the image and returns its file name, e.g. `img_Ab3…9.png`. */
  publish(image: EncodedImage, lifetimeSeconds: number, nowMs = Date.now()): string {
    const name = `img_${randomAlphanumeric(FILE_NAME_ID_LENGTH)}.${EXTENSIONS[image.format]}`;
    if (this.files.size >= CAPACITY) this.files.delete(this.files.keys().next().value as string);
    this.files.set(name, { image, expiresAtMs: nowMs + lifetimeSeconds * 1000 });
    return name;
  }

  lookup(name: string, nowMs = Date.now()): ResultFileLookup {
    const file = this.files.get(name);
    if (!file) return { missing: 'unknown' };
    return nowMs >= file.expiresAtMs ? { missing: 'expired' } : { found: file };
  }
}
