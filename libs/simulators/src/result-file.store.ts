import { EncodedImage } from './image-bytes.util';
import { randomAlphanumeric } from './random-id.util';

/** The bytes a result URL serves: a generated image, or a video's file. */
export interface ResultContent {
  contentType: string;
  bytes: Buffer;
}

/** A generated file that a result URL points at, until it expires. */
export interface ResultFile {
  content: ResultContent;
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
    return this.publishContent(
      image,
      { prefix: 'img', extension: EXTENSIONS[image.format] },
      lifetimeSeconds,
      nowMs,
    );
  }

  /** Remembers any bytes under a fresh name `<prefix>_<id>.<extension>` (a video is `video_….mp4`). */
  publishContent(
    content: ResultContent,
    name: { prefix: string; extension: string },
    lifetimeSeconds: number,
    nowMs = Date.now(),
  ): string {
    const fileName = `${name.prefix}_${randomAlphanumeric(FILE_NAME_ID_LENGTH)}.${name.extension}`;
    if (this.files.size >= CAPACITY) this.files.delete(this.files.keys().next().value as string);
    this.files.set(fileName, { content, expiresAtMs: nowMs + lifetimeSeconds * 1000 });
    return fileName;
  }

  lookup(name: string, nowMs = Date.now()): ResultFileLookup {
    const file = this.files.get(name);
    if (!file) return { missing: 'unknown' };
    return nowMs >= file.expiresAtMs ? { missing: 'expired' } : { found: file };
  }
}
