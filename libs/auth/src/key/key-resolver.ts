import { systemClock, type Clock } from '@gateway/providers-core';
import type { RedisConnection } from '@gateway/redis';
import { keyGovernanceOf } from '../governance/governance-columns.util';
import { hashApiKey, looksLikeApiKey } from './api-key.util';
import { KeyRecordCache, type KeyRecord } from './key-record.cache';
import type { KeyRowSource } from './key-row.source';
import type { KeyRejection, KeyResolution } from './resolved-key';
import { UnknownKeyCache } from './unknown-key.cache';

export interface KeyResolverOptions {
  /** How long a found key stays cached; bounds the delay of a lost invalidation message. */
  ttlMs: number;
  /** Redis pub/sub channel carrying invalidations; see keyInvalidationChannel(). */
  channelName: string;
  /**
   * How long a hash that matches no key stays cached (defaults to the smaller of ttlMs and one
   * second). Keys are created without an invalidation, so this bounds how long a key created after
   * someone presented its exact value stays refused: short.
   */
  unknownTtlMs?: number;
  /** Most found keys kept; the oldest go first. */
  maxEntries?: number;
  /** Most unknown hashes kept, apart from the found keys; the oldest go first. */
  maxUnknownEntries?: number;
  clock?: Clock;
}

const UNKNOWN: KeyRejection = Object.freeze({ reason: 'unknown' });

/** The conventional invalidation channel under the configured Redis prefix. */
export function keyInvalidationChannel(redisPrefix: string): string {
  return `${redisPrefix}:auth:key-invalidations`;
}

/**
 * Resolves a presented key to its owner on the hot path without a database query per request.
 *
 * Lookups are cached in memory by key hash, found keys and unknown hashes apart. Expiry is checked
 * against the clock on every call, so an expired key stops at once even from the cache. Concurrent
 * misses for one hash share one query; a credential without the shape of a key costs none.
 * An admin change calls invalidate(): the message reaches every instance's subscriber, which drops
 * the entries, so a disabled key stops everywhere within about a second, and within ttlMs at worst
 * when a message is lost (the cache is also emptied whenever the subscriber reconnects).
 */
export class KeyResolver {
  private readonly cache: KeyRecordCache;
  private readonly unknownKeys: UnknownKeyCache;
  private readonly inFlight = new Map<string, Promise<KeyRecord | null>>();
  private readonly clock: Clock;
  private readonly unknownTtlMs: number;
  /** Bumped by every invalidation: a query that started before one must not fill the cache. */
  private epoch = 0;

  constructor(
    private readonly keyRows: KeyRowSource,
    private readonly subscriber: RedisConnection,
    private readonly publisher: RedisConnection,
    private readonly options: KeyResolverOptions,
  ) {
    this.cache = new KeyRecordCache(options.maxEntries ?? 50_000);
    this.unknownKeys = new UnknownKeyCache(options.maxUnknownEntries ?? 10_000);
    this.clock = options.clock ?? systemClock;
    this.unknownTtlMs = options.unknownTtlMs ?? Math.min(options.ttlMs, 1000);
  }

  /** Subscribes to invalidations; call before serving traffic. */
  async start(): Promise<void> {
    this.subscriber.on('message', this.onMessage);
    await this.subscriber.subscribe(this.options.channelName);
    // Listening only now: the connection's first `ready` is not a reconnection.
    this.subscriber.on('ready', this.onReconnect);
  }

  async close(): Promise<void> {
    this.subscriber.off('message', this.onMessage);
    this.subscriber.off('ready', this.onReconnect);
    if (this.subscriber.status === 'ready') await this.subscriber.unsubscribe(this.options.channelName);
  }

  // perf-machinery: synchronous-key-resolution (docs/performance-machinery.md)
  /**
   * The answer at once when the cache has it (every request of a busy key), a promise only when the
   * table must be read: the early authentication hook then takes no promise or microtask hop.
   */
  resolve(plaintext: string | undefined): KeyResolution | Promise<KeyResolution> {
    if (!plaintext) return { reason: 'missing' };
    // Every key is made by generateApiKey: a credential of another shape cannot be in the table.
    if (!looksLikeApiKey(plaintext)) return UNKNOWN;
    const hash = hashApiKey(plaintext);
    const now = this.clock.now();
    const cached = this.cache.get(hash, now);
    if (cached) return this.judge(cached.record);
    if (this.unknownKeys.has(hash, now)) return UNKNOWN;
    return this.load(hash).then((record) => this.judge(record));
  }

  /**
   * Drops a key (by id or hash), or every key of an account (by account id), from the cache of every
   * instance: a change of a key's or an account's governance reaches every instance as a revocation does.
   */
  async invalidate(keyIdOrHash: string): Promise<void> {
    this.dropLocally(keyIdOrHash);
    await this.publisher.publish(this.options.channelName, keyIdOrHash);
  }

  private judge(record: KeyRecord | null): KeyResolution {
    if (record === null) return UNKNOWN;
    if (!record.active) return { reason: 'disabled' };
    const { expiresAt } = record.key;
    if (expiresAt !== null && expiresAt <= this.clock.now()) return { reason: 'expired' };
    return record.key;
  }

  private load(hash: string): Promise<KeyRecord | null> {
    const pending = this.inFlight.get(hash);
    if (pending) return pending;
    const startedInEpoch = this.epoch;
    const query = this.findRecord(hash)
      .then((record) => {
        if (startedInEpoch === this.epoch) this.remember(hash, record);
        return record;
      })
      .finally(() => {
        if (this.inFlight.get(hash) === query) this.inFlight.delete(hash);
      });
    this.inFlight.set(hash, query);
    return query;
  }

  private remember(hash: string, record: KeyRecord | null): void {
    const now = this.clock.now();
    if (record === null) {
      if (this.unknownTtlMs > 0) this.unknownKeys.add(hash, now + this.unknownTtlMs);
    } else if (this.options.ttlMs > 0) {
      this.cache.set(hash, record, now + this.options.ttlMs);
    }
  }

  private async findRecord(hash: string): Promise<KeyRecord | null> {
    const row = await this.keyRows.findByHash(hash);
    if (row === null) return null;
    return {
      active: row.status === 'active',
      key: Object.freeze({
        id: row.id,
        accountId: row.accountId,
        prefix: row.prefix,
        allowedModels: row.allowedModels.length > 0 ? new Set(row.allowedModels) : null,
        expiresAt: row.expiresAtMs,
        governance: keyGovernanceOf(row),
      }),
    };
  }

  private dropLocally(keyIdOrHash: string): void {
    this.epoch += 1;
    this.inFlight.clear();
    this.cache.drop(keyIdOrHash);
    this.unknownKeys.delete(keyIdOrHash);
  }

  private readonly onMessage = (channel: string, message: string): void => {
    if (channel === this.options.channelName) this.dropLocally(message);
  };

  /** Messages sent while the subscriber was away are lost: forget everything rather than trust it. */
  private readonly onReconnect = (): void => {
    this.epoch += 1;
    this.inFlight.clear();
    this.cache.clear();
    this.unknownKeys.clear();
  };
}
