import { EventEmitter } from 'node:events';
import type Redis from 'ioredis';
import { generateApiKey } from './api-key.util';
import { KeyResolver } from './key-resolver';
import type { KeyRow, KeyRowSource } from './key-row.source';

/** A key table whose answers the test releases one by one, to order queries against invalidations. */
class ControlledKeyTable implements KeyRowSource {
  private readonly waiting: Array<() => void> = [];
  status = 'active';

  findByHash(): Promise<KeyRow> {
    const answerAtQueryTime: KeyRow = {
      id: 'key_1',
      accountId: 'acct_1',
      prefix: 'gk_abcdefgh',
      status: this.status,
      expiresAtMs: null,
      allowedModels: [],
    };
    return new Promise((resolve) => this.waiting.push(() => resolve(answerAtQueryTime)));
  }

  get pendingQueries(): number {
    return this.waiting.length;
  }

  answerOldest(): void {
    this.waiting.shift()?.();
  }

  answerNewest(): void {
    this.waiting.pop()?.();
  }
}

/** Enough of a Redis connection for pub/sub within one process. */
class LoopbackRedis extends EventEmitter {
  status = 'ready';
  async subscribe(): Promise<number> {
    return 1;
  }
  async unsubscribe(): Promise<number> {
    return 0;
  }
  async publish(channel: string, message: string): Promise<number> {
    this.emit('message', channel, message);
    return 1;
  }
}

describe('KeyResolver', () => {
  const plaintext = generateApiKey().plaintext;
  let table: ControlledKeyTable;
  let redis: LoopbackRedis;
  let resolver: KeyResolver;

  beforeEach(async () => {
    table = new ControlledKeyTable();
    redis = new LoopbackRedis();
    const connection = redis as unknown as Redis;
    resolver = new KeyResolver(table, connection, connection, {
      ttlMs: 60_000,
      channelName: 'keys',
    });
    await resolver.start();
  });

  afterEach(() => resolver.close());

  it('keeps the answer of a query that raced an invalidation out of the cache', async () => {
    const beforeDisable = resolver.resolve(plaintext);
    table.status = 'disabled';
    await resolver.invalidate('key_1');
    const afterDisable = resolver.resolve(plaintext);

    // The stale answer arrives last: it must not overwrite the fresh one in the cache.
    expect(table.pendingQueries).toBe(2);
    table.answerNewest();
    expect(await afterDisable).toEqual({ reason: 'disabled' });
    table.answerOldest();
    expect(await beforeDisable).toMatchObject({ id: 'key_1' });

    expect(await resolver.resolve(plaintext)).toEqual({ reason: 'disabled' });
    expect(table.pendingQueries).toBe(0);
  });

  it('forgets every cached key when the subscriber reconnects, since messages may have been lost', async () => {
    const first = resolver.resolve(plaintext);
    table.answerOldest();
    expect(await first).toMatchObject({ id: 'key_1' });

    table.status = 'disabled';
    redis.emit('ready');
    const second = resolver.resolve(plaintext);
    table.answerOldest();

    expect(await second).toEqual({ reason: 'disabled' });
  });

  it('answers a cached key, and a credential that cannot be a key, without a promise', async () => {
    const first = resolver.resolve(plaintext);
    expect(first).toBeInstanceOf(Promise);
    table.answerOldest();
    await first;

    expect(resolver.resolve(plaintext)).toMatchObject({ id: 'key_1' });
    expect(resolver.resolve('not-a-key')).toEqual({ reason: 'unknown' });
    expect(resolver.resolve(undefined)).toEqual({ reason: 'missing' });
    expect(table.pendingQueries).toBe(0);
  });

  it('ignores messages of other channels', async () => {
    const first = resolver.resolve(plaintext);
    table.answerOldest();
    await first;

    await redis.publish('other-channel', 'key_1');

    expect(await resolver.resolve(plaintext)).toMatchObject({ id: 'key_1' });
    expect(table.pendingQueries).toBe(0);
  });
});
