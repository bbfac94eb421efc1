import type { ResolvedKey } from './resolved-key';

/** What the database says about a key hash that matches a key: the key and its status. */
export interface KeyRecord {
  readonly key: ResolvedKey;
  readonly active: boolean;
}

interface CacheEntry {
  readonly record: KeyRecord;
  readonly validUntil: number;
}

/**
 * Found keys by SHA-256 hash, each valid until a deadline. Bounded: past `maxEntries` the oldest
 * entry goes. Hashes that match no key are kept apart (UnknownKeyCache).
 */
export class KeyRecordCache {
  private readonly entries = new Map<string, CacheEntry>();

  constructor(private readonly maxEntries: number) {}

  /** The cached lookup for a hash, or undefined when there is none or it is stale. */
  get(hash: string, now: number): { record: KeyRecord } | undefined {
    const entry = this.entries.get(hash);
    if (entry === undefined) return undefined;
    if (entry.validUntil > now) return entry;
    this.entries.delete(hash);
    return undefined;
  }

  set(hash: string, record: KeyRecord, validUntil: number): void {
    this.entries.delete(hash);
    this.entries.set(hash, { record, validUntil });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  /** Drops the entry of a hash, or every entry of a key id or of an account id. */
  drop(keyIdOrHash: string): void {
    this.entries.delete(keyIdOrHash);
    for (const [hash, entry] of this.entries) {
      const { key } = entry.record;
      if (key.id === keyIdOrHash || key.accountId === keyIdOrHash) this.entries.delete(hash);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
