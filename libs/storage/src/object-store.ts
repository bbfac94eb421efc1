import type { Readable } from 'node:stream';

/** Where a store reads the time (expiry checks, default retention); the process clock unless a test sets one. */
export interface ObjectStoreClock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemObjectStoreClock: ObjectStoreClock = { now: () => Date.now() };

export interface PutObjectOptions {
  /** A plain `type/subtype`, served back as Content-Type. */
  contentType: string;
  /** When the object may be removed; defaults to now plus the store's retention. Kept to the second. */
  expiresAt?: Date;
}

export interface StoredObjectInfo {
  /** Unguessable, URL-safe; see object-id.util.ts. */
  id: string;
  contentType: string;
  /** Bytes in the whole object. */
  size: number;
  expiresAt: Date;
}

/** Inclusive byte offsets, as in an HTTP `Range: bytes=start-end` header; no end means to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface StoredObjectContent extends StoredObjectInfo {
  body: Readable;
  /** The bytes `body` holds when a range was asked for, with `end` clamped to the last byte. */
  range: Required<ByteRange> | undefined;
}

export interface SweepResult {
  /** Expired objects removed. */
  removed: number;
  /** Expired objects whose removal failed; the next sweep tries them again. */
  failed: number;
}

/**
 * The files the gateway serves itself (for example an image a client wants as a URL that the upstream
 * sent as Base64). Objects never change once stored. An unknown, malformed or expired id reads as
 * absent, whether or not a sweep has removed it yet.
 */
export interface ObjectStore {
  put(bytes: Uint8Array, options: PutObjectOptions): Promise<StoredObjectInfo>;
  head(id: string): Promise<StoredObjectInfo | undefined>;
  /** Throws UnsatisfiableRangeError when `range` starts past the last byte. */
  get(id: string, range?: ByteRange): Promise<StoredObjectContent | undefined>;
  /** Removing an absent object is not an error. */
  delete(id: string): Promise<void>;
  /** Removes every object that expired at or before `now`; a retention worker calls it periodically. */
  sweepExpired(now: Date): Promise<SweepResult>;
}

/** A range that starts past the object's last byte: the gateway answers 416 with `bytes *\/size`. */
export class UnsatisfiableRangeError extends Error {
  constructor(readonly size: number) {
    super(`the requested range starts past the end of a ${size}-byte object`);
    this.name = 'UnsatisfiableRangeError';
  }
}
