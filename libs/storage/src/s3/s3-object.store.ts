import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3ServiceException,
  type GetObjectCommandOutput,
  type S3Client,
} from '@aws-sdk/client-s3';
import { assertByteRange, resolveByteRange } from '../byte-range.util';
import { createObjectId, expirySecondsOfObjectId, isLiveObjectId, isObjectId } from '../object-id.util';
import {
  systemObjectStoreClock,
  UnsatisfiableRangeError,
  type ByteRange,
  type ObjectStore,
  type ObjectStoreClock,
  type PutObjectOptions,
  type StoredObjectContent,
  type StoredObjectInfo,
  type SweepResult,
} from '../object-store';
import { resolvePutOptions } from '../put-options.util';

export interface S3ObjectStoreOptions {
  client: S3Client;
  bucket: string;
  /** Start of every key; may be empty. */
  keyPrefix: string;
  retentionHours: number;
  clock?: ObjectStoreClock;
}

const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+)$/;
const FALLBACK_CONTENT_TYPE = 'application/octet-stream';

/**
 * S3-compatible storage: one object per id under `keyPrefix`, with the content type as the object's
 * own and the expiry in user metadata (`x-amz-meta-expires-at`) as well as in the id.
 */
export class S3ObjectStore implements ObjectStore {
  private readonly clock: ObjectStoreClock;

  constructor(private readonly options: S3ObjectStoreOptions) {
    this.clock = options.clock ?? systemObjectStoreClock;
  }

  async put(bytes: Uint8Array, options: PutObjectOptions): Promise<StoredObjectInfo> {
    const { contentType, expiresAtSeconds } = resolvePutOptions(
      options,
      this.options.retentionHours,
      this.clock.now(),
    );
    const id = createObjectId(expiresAtSeconds);
    const expiresAt = new Date(expiresAtSeconds * 1000);
    await this.options.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.keyOf(id),
        Body: bytes,
        ContentLength: bytes.byteLength,
        ContentType: contentType,
        Metadata: { 'expires-at': expiresAt.toISOString() },
      }),
    );
    return { id, contentType, size: bytes.byteLength, expiresAt };
  }

  async head(id: string): Promise<StoredObjectInfo | undefined> {
    if (!isLiveObjectId(id, this.clock.now())) return undefined;
    const head = await ifFound(
      this.options.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(id) })),
    );
    return head && toInfo(id, head.ContentType, head.ContentLength ?? 0);
  }

  async get(id: string, range?: ByteRange): Promise<StoredObjectContent | undefined> {
    if (range) assertByteRange(range);
    if (!isLiveObjectId(id, this.clock.now())) return undefined;
    let object: GetObjectCommandOutput;
    try {
      object = await this.options.client.send(
        new GetObjectCommand({
          Bucket: this.options.bucket,
          Key: this.keyOf(id),
          Range: range && `bytes=${range.start}-${range.end ?? ''}`,
        }),
      );
    } catch (error) {
      if (hasStatus(error, 404)) return undefined;
      if (hasStatus(error, 416)) return this.refuseRange(id, error);
      throw error;
    }
    const body = object.Body;
    if (!(body instanceof Readable)) {
      throw new Error('the S3 client returned a body that is not a Node stream');
    }
    try {
      const { size, served } = servedBytesOf(object);
      const resolved = range && resolveByteRange(range, size);
      // A server may answer a range with other bytes (s3rver takes `bytes=0-0` for the whole object,
      // others ignore Range): refuse rather than hand out bytes under the wrong label.
      if (resolved && (served.start !== resolved.start || served.end !== resolved.end)) {
        throw new Error(
          `the S3 server sent bytes ${served.start}-${served.end} for ${resolved.start}-${resolved.end}`,
        );
      }
      return { ...toInfo(id, object.ContentType, size), body, range: resolved };
    } catch (error) {
      body.destroy();
      throw error;
    }
  }

  async delete(id: string): Promise<void> {
    if (!isObjectId(id)) return;
    await this.options.client.send(
      new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(id) }),
    );
  }

  /**
   * Lists in key order, which is expiry order (see object-id.util.ts), and stops at the first live
   * object: a sweep reads only the expired part of the bucket and asks nothing per object.
   */
  async sweepExpired(now: Date): Promise<SweepResult> {
    const result: SweepResult = { removed: 0, failed: 0 };
    let continuationToken: string | undefined;
    do {
      const page = await this.options.client.send(
        new ListObjectsV2Command({
          Bucket: this.options.bucket,
          Prefix: this.options.keyPrefix,
          ContinuationToken: continuationToken,
        }),
      );
      const ids = (page.Contents ?? []).map((entry) => entry.Key?.slice(this.options.keyPrefix.length) ?? '');
      const firstLive = ids.findIndex((id) => isLiveObjectId(id, now.getTime()));
      const expired = (firstLive < 0 ? ids : ids.slice(0, firstLive)).filter(isObjectId);
      await this.deleteExpired(expired, result);
      continuationToken = firstLive < 0 && page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
    return result;
  }

  /** One request for a page of at most 1,000 keys, the limit of both the listing and the batch delete. */
  private async deleteExpired(ids: string[], result: SweepResult): Promise<void> {
    if (ids.length === 0) return;
    const answer = await this.options.client.send(
      new DeleteObjectsCommand({
        Bucket: this.options.bucket,
        Delete: { Objects: ids.map((id) => ({ Key: this.keyOf(id) })), Quiet: true },
      }),
    );
    const failed = answer.Errors?.length ?? 0;
    result.failed += failed;
    result.removed += ids.length - failed;
  }

  /** Real S3 puts the size in its 416 error (ActualObjectSize); a server that leaves it out is asked with HEAD. */
  private async refuseRange(id: string, error: S3ServiceException): Promise<undefined> {
    const reported = (error as S3ServiceException & { ActualObjectSize?: unknown }).ActualObjectSize;
    const size =
      typeof reported === 'string' && /^\d+$/.test(reported) ? Number(reported) : (await this.head(id))?.size;
    if (size === undefined) return undefined;
    throw new UnsatisfiableRangeError(size);
  }

  private keyOf(id: string): string {
    return `${this.options.keyPrefix}${id}`;
  }
}

function toInfo(id: string, contentType: string | undefined, size: number): StoredObjectInfo {
  return {
    id,
    contentType: contentType ?? FALLBACK_CONTENT_TYPE,
    size,
    expiresAt: new Date(expirySecondsOfObjectId(id) * 1000),
  };
}

/** The size of the whole object, and the bytes the answer holds: its Content-Range, or everything. */
function servedBytesOf(object: GetObjectCommandOutput): { size: number; served: Required<ByteRange> } {
  if (object.ContentRange === undefined) {
    if (object.ContentLength === undefined) throw new Error('the S3 server did not report the object size');
    return { size: object.ContentLength, served: { start: 0, end: object.ContentLength - 1 } };
  }
  const match = CONTENT_RANGE.exec(object.ContentRange);
  if (!match) throw new Error(`the S3 server sent an unreadable Content-Range "${object.ContentRange}"`);
  return { size: Number(match[3]), served: { start: Number(match[1]), end: Number(match[2]) } };
}

function hasStatus(error: unknown, status: number): error is S3ServiceException {
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === status;
}

/** The answer, or undefined when the key does not exist. */
async function ifFound<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    if (hasStatus(error, 404)) return undefined;
    throw error;
  }
}
