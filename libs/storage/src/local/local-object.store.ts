import { mkdir, open, readdir, readFile, rmdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { assertByteRange, resolveByteRange } from '../byte-range.util';
import { createObjectId, expirySecondsOfObjectId, isLiveObjectId, isObjectId } from '../object-id.util';
import {
  systemObjectStoreClock,
  type ByteRange,
  type ObjectStore,
  type ObjectStoreClock,
  type PutObjectOptions,
  type StoredObjectContent,
  type StoredObjectInfo,
  type SweepResult,
} from '../object-store';
import { resolvePutOptions } from '../put-options.util';
import { writeFileAtomically } from './atomic-file.util';

export interface LocalObjectStoreOptions {
  directory: string;
  retentionHours: number;
  clock?: ObjectStoreClock;
}

/** The sidecar `<id>.json` beside the bytes in `<id>`. */
interface LocalObjectMetadata {
  contentType: string;
  expiresAt: string;
}

const ID_LENGTH = 43;
/**
 * Objects are grouped in folders named by the first five digits of their id, that is by expiry in
 * spans of 100,000 s (about 28 hours): no folder grows without bound, and a sweep opens only the
 * folders whose span has begun.
 */
const GROUP_DIGITS = 5;
const GROUP_SPAN_SECONDS = 100_000;
const GROUP_NAME = /^\d{5}$/;

/**
 * The embedded default: one directory on a local disk, shared by the gateway and the worker that
 * sweeps it. Every path is built from an id that passed isObjectId, so no id can leave the directory.
 */
export class LocalObjectStore implements ObjectStore {
  private readonly clock: ObjectStoreClock;

  constructor(private readonly options: LocalObjectStoreOptions) {
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
    const metadata: LocalObjectMetadata = { contentType, expiresAt: expiresAt.toISOString() };
    try {
      await this.writeObjectFiles(id, bytes, metadata);
    } catch (error) {
      // A sweep whose clock is past this folder's span (another host's, or an object that expires in
      // the span's last moments) may remove the folder while it is still empty, between the mkdir and
      // the write. The folder is made again, once: a second loss would need a second sweep meanwhile.
      if (!isMissingFileError(error)) throw error;
      await this.writeObjectFiles(id, bytes, metadata);
    }
    return { id, contentType, size: bytes.byteLength, expiresAt };
  }

  async head(id: string): Promise<StoredObjectInfo | undefined> {
    const metadata = await this.readLiveMetadata(id);
    if (metadata === undefined) return undefined;
    const data = await ifPresent(stat(this.dataPathOf(id)));
    return data && toInfo(id, metadata, data.size);
  }

  async get(id: string, range?: ByteRange): Promise<StoredObjectContent | undefined> {
    if (range) assertByteRange(range);
    const metadata = await this.readLiveMetadata(id);
    if (metadata === undefined) return undefined;
    const handle = await ifPresent(open(this.dataPathOf(id), 'r'));
    if (handle === undefined) return undefined;
    try {
      const { size } = await handle.stat();
      const resolved = range && resolveByteRange(range, size);
      const body = handle.createReadStream(resolved ?? {});
      return { ...toInfo(id, metadata, size), body, range: resolved };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async delete(id: string): Promise<void> {
    if (!isObjectId(id)) return;
    // The sidecar first, so the object stops being readable before its bytes go.
    await unlinkIfPresent(this.metadataPathOf(id));
    await unlinkIfPresent(this.dataPathOf(id));
  }

  async sweepExpired(now: Date): Promise<SweepResult> {
    const result: SweepResult = { removed: 0, failed: 0 };
    const groups = ((await ifPresent(readdir(this.options.directory))) ?? [])
      .filter((name) => GROUP_NAME.test(name))
      .sort();
    for (const group of groups) {
      if (Number(group) * GROUP_SPAN_SECONDS * 1000 > now.getTime()) break;
      await this.sweepGroup(group, now.getTime(), result);
    }
    return result;
  }

  /** Removes every file (bytes, sidecar, a crash's temporary files) of each expired id in one folder. */
  private async sweepGroup(group: string, nowMs: number, result: SweepResult): Promise<void> {
    const folder = join(this.options.directory, group);
    const names = (await ifPresent(readdir(folder))) ?? [];
    const filesById = new Map<string, string[]>();
    for (const name of names) {
      const id = name.slice(0, ID_LENGTH);
      if (!isObjectId(id) || isLiveObjectId(id, nowMs)) continue;
      filesById.set(id, [...(filesById.get(id) ?? []), name]);
    }
    for (const files of filesById.values()) {
      const outcomes = await Promise.allSettled(files.map((name) => unlinkIfPresent(join(folder, name))));
      if (outcomes.some((outcome) => outcome.status === 'rejected')) result.failed += 1;
      else result.removed += 1;
    }
    const groupEndMs = (Number(group) + 1) * GROUP_SPAN_SECONDS * 1000;
    // A folder whose whole span has passed gets no new objects; a failed removal leaves it non-empty.
    if (groupEndMs <= nowMs) await rmdir(folder).catch(() => undefined);
  }

  private async writeObjectFiles(
    id: string,
    bytes: Uint8Array,
    metadata: LocalObjectMetadata,
  ): Promise<void> {
    await mkdir(this.groupFolderOf(id), { recursive: true });
    // The sidecar goes last: until it exists the object reads as absent, never as half written.
    await writeFileAtomically(this.dataPathOf(id), bytes);
    await writeFileAtomically(this.metadataPathOf(id), JSON.stringify(metadata));
  }

  private async readLiveMetadata(id: string): Promise<LocalObjectMetadata | undefined> {
    if (!isLiveObjectId(id, this.clock.now())) return undefined;
    const text = await ifPresent(readFile(this.metadataPathOf(id), 'utf8'));
    return text === undefined ? undefined : (JSON.parse(text) as LocalObjectMetadata);
  }

  private groupFolderOf(id: string): string {
    return join(this.options.directory, id.slice(0, GROUP_DIGITS));
  }

  private dataPathOf(id: string): string {
    return join(this.groupFolderOf(id), id);
  }

  private metadataPathOf(id: string): string {
    return join(this.groupFolderOf(id), `${id}.json`);
  }
}

function toInfo(id: string, metadata: LocalObjectMetadata, size: number): StoredObjectInfo {
  return {
    id,
    contentType: metadata.contentType,
    size,
    expiresAt: new Date(expirySecondsOfObjectId(id) * 1000),
  };
}

/** The result, or undefined when the file (or folder) does not exist. */
async function ifPresent<T>(operation: Promise<T>): Promise<T | undefined> {
  try {
    return await operation;
  } catch (error) {
    if (isMissingFileError(error)) return undefined;
    throw error;
  }
}

function isMissingFileError(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

async function unlinkIfPresent(path: string): Promise<void> {
  await ifPresent(unlink(path));
}
