import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { createTestDatabase } from '@gateway/testing';
import Redis from 'ioredis';
import type { Pool } from 'pg';
import { generateApiKey } from './api-key.util';
import { KeyResolver, type KeyResolverOptions } from './key-resolver';
import { pgKeyRowSource } from './key-row.source';
import { isKeyRejection, isModelAllowed, type KeyResolution, type ResolvedKey } from './resolved-key';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ACCOUNT_ID = 'acct_resolver';

interface SeededKey {
  id: string;
  plaintext: string;
  hash: string;
}

describe('KeyResolver (Postgres + Redis)', () => {
  let database: { url: string; drop(): Promise<void> };
  let pool: Pool;
  let prisma: PrismaClient;
  let publisher: Redis;
  let queries = 0;
  const resolvers: KeyResolver[] = [];
  const subscribers: Redis[] = [];
  let now: number;
  const clock = { now: () => now };

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPgPool(database.url, 4);
    // Every query outside a transaction checks a connection out of the pool: count them.
    pool.on('acquire', () => {
      queries += 1;
    });
    prisma = createPrismaClient(pool);
    await prisma.account.create({ data: { id: ACCOUNT_ID, name: 'resolver tests' } });
    publisher = new Redis(REDIS_URL);
  });

  beforeEach(() => {
    now = Date.now();
  });

  afterEach(async () => {
    await Promise.all(resolvers.splice(0).map((resolver) => resolver.close()));
    subscribers.splice(0).forEach((subscriber) => subscriber.disconnect());
  });

  afterAll(async () => {
    publisher.disconnect();
    await prisma.$disconnect();
    await pool.end();
    await database.drop();
  });

  async function startResolver(
    channelName: string,
    options: Partial<KeyResolverOptions> = {},
    lookupPool: Pool = pool,
  ): Promise<KeyResolver> {
    const subscriber = new Redis(REDIS_URL);
    subscribers.push(subscriber);
    const resolver = new KeyResolver(pgKeyRowSource(lookupPool), subscriber, publisher, {
      ttlMs: 60_000,
      channelName,
      clock,
      ...options,
    });
    resolvers.push(resolver);
    await resolver.start();
    return resolver;
  }

  async function seedKey(
    fields: { status?: string; expiresAt?: Date; allowedModels?: string[] } = {},
  ): Promise<SeededKey> {
    const generated = generateApiKey();
    const id = `key_${randomUUID()}`;
    await prisma.apiKey.create({
      data: {
        id,
        accountId: ACCOUNT_ID,
        name: 'test',
        prefix: generated.prefix,
        hash: generated.hash,
        ...fields,
      },
    });
    return { id, plaintext: generated.plaintext, hash: generated.hash };
  }

  function expectResolved(resolution: KeyResolution): ResolvedKey {
    if (isKeyRejection(resolution)) throw new Error(`expected a key, got rejection ${resolution.reason}`);
    return resolution;
  }

  function uniqueChannel(): string {
    return `test:${randomUUID()}:key-invalidations`;
  }

  async function resolveWithinOneSecond(resolver: KeyResolver, plaintext: string): Promise<KeyResolution> {
    const deadline = Date.now() + 1000;
    let resolution = await resolver.resolve(plaintext);
    while (!isKeyRejection(resolution) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      resolution = await resolver.resolve(plaintext);
    }
    return resolution;
  }

  it('resolves an active key to its owner, prefix, models and expiry', async () => {
    const expiresAt = new Date(now + 3_600_000);
    const key = await seedKey({ allowedModels: ['kappa-2.0-flash', 'img-2'], expiresAt });
    const resolver = await startResolver(uniqueChannel());

    const resolved = expectResolved(await resolver.resolve(key.plaintext));

    expect(resolved).toMatchObject({ id: key.id, accountId: ACCOUNT_ID, prefix: key.plaintext.slice(0, 11) });
    expect(resolved.expiresAt).toBe(expiresAt.getTime());
    expect(isModelAllowed(resolved, 'img-2')).toBe(true);
    expect(isModelAllowed(resolved, 'draw-3')).toBe(false);
  });

  it('lets a key with no model list use every model', async () => {
    const key = await seedKey();
    const resolver = await startResolver(uniqueChannel());

    const resolved = expectResolved(await resolver.resolve(key.plaintext));

    expect(resolved.allowedModels).toBeNull();
    expect(resolved.expiresAt).toBeNull();
    expect(isModelAllowed(resolved, 'anything')).toBe(true);
  });

  it('refuses missing, unknown, disabled and expired keys', async () => {
    const disabled = await seedKey({ status: 'disabled' });
    const expired = await seedKey({ expiresAt: new Date(now - 1) });
    const resolver = await startResolver(uniqueChannel());

    expect(await resolver.resolve(undefined)).toEqual({ reason: 'missing' });
    expect(await resolver.resolve('')).toEqual({ reason: 'missing' });
    expect(await resolver.resolve(generateApiKey().plaintext)).toEqual({ reason: 'unknown' });
    expect(await resolver.resolve(disabled.plaintext)).toEqual({ reason: 'disabled' });
    expect(await resolver.resolve(expired.plaintext)).toEqual({ reason: 'expired' });
  });

  it('serves repeated lookups from the cache without querying the database', async () => {
    const key = await seedKey();
    const resolver = await startResolver(uniqueChannel(), { ttlMs: 5000 });
    queries = 0;

    await resolver.resolve(key.plaintext);
    await resolver.resolve(key.plaintext);
    await resolver.resolve(key.plaintext);
    expect(queries).toBe(1);

    now += 5001;
    expectResolved(await resolver.resolve(key.plaintext));
    expect(queries).toBe(2);
  });

  it('caches unknown keys for a shorter time', async () => {
    const unknown = generateApiKey().plaintext;
    const resolver = await startResolver(uniqueChannel(), { ttlMs: 5000, unknownTtlMs: 500 });
    queries = 0;

    await resolver.resolve(unknown);
    await resolver.resolve(unknown);
    expect(queries).toBe(1);

    now += 501;
    expect(await resolver.resolve(unknown)).toEqual({ reason: 'unknown' });
    expect(queries).toBe(2);
  });

  it('refuses a credential without the shape of a key without a query', async () => {
    const resolver = await startResolver(uniqueChannel());
    queries = 0;

    for (const credential of ['not-a-key', 'gk_short_x', `gk_abcdefgh_${'!'.repeat(40)}`]) {
      expect(await resolver.resolve(credential)).toEqual({ reason: 'unknown' });
    }
    expect(queries).toBe(0);
  });

  it('keeps the keys in use cached through a flood of unknown keys', async () => {
    const key = await seedKey();
    const resolver = await startResolver(uniqueChannel(), { maxEntries: 10, maxUnknownEntries: 10 });
    expectResolved(await resolver.resolve(key.plaintext));
    queries = 0;

    for (let index = 0; index < 50; index += 1) {
      expect(await resolver.resolve(generateApiKey().plaintext)).toEqual({ reason: 'unknown' });
    }
    expect(queries).toBe(50);

    expectResolved(await resolver.resolve(key.plaintext));
    expect(queries).toBe(50);
  });

  it('serves a key created after its value was refused as unknown once the unknown entry lapses', async () => {
    const generated = generateApiKey();
    const resolver = await startResolver(uniqueChannel(), { unknownTtlMs: 1000 });
    expect(await resolver.resolve(generated.plaintext)).toEqual({ reason: 'unknown' });

    await prisma.apiKey.create({
      data: {
        id: `key_${randomUUID()}`,
        accountId: ACCOUNT_ID,
        name: 'created after a refusal',
        prefix: generated.prefix,
        hash: generated.hash,
      },
    });
    queries = 0;
    expect(await resolver.resolve(generated.plaintext)).toEqual({ reason: 'unknown' });
    expect(queries).toBe(0);

    now += 1000;
    expectResolved(await resolver.resolve(generated.plaintext));
    expect(queries).toBe(1);
  });

  it('forgets an unknown hash at once when that hash is invalidated', async () => {
    const generated = generateApiKey();
    const resolver = await startResolver(uniqueChannel(), { unknownTtlMs: 60_000 });
    expect(await resolver.resolve(generated.plaintext)).toEqual({ reason: 'unknown' });
    await prisma.apiKey.create({
      data: {
        id: `key_${randomUUID()}`,
        accountId: ACCOUNT_ID,
        name: 'announced',
        prefix: generated.prefix,
        hash: generated.hash,
      },
    });

    await resolver.invalidate(generated.hash);

    expectResolved(await resolver.resolve(generated.plaintext));
  });

  it('refuses a cached key as soon as its expiry passes, without a query', async () => {
    const key = await seedKey({ expiresAt: new Date(now + 1000) });
    const resolver = await startResolver(uniqueChannel());
    queries = 0;
    expectResolved(await resolver.resolve(key.plaintext));

    now += 1000;

    expect(await resolver.resolve(key.plaintext)).toEqual({ reason: 'expired' });
    expect(queries).toBe(1);
  });

  it('stops a disabled key on every instance within a second of the invalidation', async () => {
    const key = await seedKey();
    const channelName = uniqueChannel();
    const instanceA = await startResolver(channelName);
    const instanceB = await startResolver(channelName);
    expectResolved(await instanceA.resolve(key.plaintext));
    expectResolved(await instanceB.resolve(key.plaintext));

    await prisma.apiKey.update({ where: { id: key.id }, data: { status: 'disabled' } });
    const invalidatedAt = Date.now();
    await instanceA.invalidate(key.id);

    expect(await instanceA.resolve(key.plaintext)).toEqual({ reason: 'disabled' });
    expect(await resolveWithinOneSecond(instanceB, key.plaintext)).toEqual({ reason: 'disabled' });
    expect(Date.now() - invalidatedAt).toBeLessThan(1000);
  });

  it('invalidates by key hash as well as by id', async () => {
    const key = await seedKey();
    const channelName = uniqueChannel();
    const instanceA = await startResolver(channelName);
    const instanceB = await startResolver(channelName);
    expectResolved(await instanceB.resolve(key.plaintext));

    await prisma.apiKey.delete({ where: { id: key.id } });
    await instanceA.invalidate(key.hash);

    expect(await resolveWithinOneSecond(instanceB, key.plaintext)).toEqual({ reason: 'unknown' });
  });

  it('stops a disabled key within the cache lifetime when the invalidation message is lost', async () => {
    const key = await seedKey();
    const resolver = await startResolver(uniqueChannel(), { ttlMs: 2000 });
    expectResolved(await resolver.resolve(key.plaintext));

    await prisma.apiKey.update({ where: { id: key.id }, data: { status: 'disabled' } });
    now += 1999;
    expectResolved(await resolver.resolve(key.plaintext));
    now += 1;

    expect(await resolver.resolve(key.plaintext)).toEqual({ reason: 'disabled' });
  });

  describe('with one database connection, busy while the lookups arrive', () => {
    let singleConnectionPool: Pool;
    let acquisitions = 0;

    beforeAll(() => {
      singleConnectionPool = createPgPool(database.url, 1);
      singleConnectionPool.on('acquire', () => {
        acquisitions += 1;
      });
    });

    afterAll(async () => {
      await singleConnectionPool.end();
    });

    /**
     * Resolves the keys one event-loop turn apart while the only connection sleeps, so every lookup is
     * still pending when the next one arrives. Returns the resolutions and the number of lookups that
     * reached the database.
     */
    async function resolveWhileBusy(
      resolver: KeyResolver,
      keys: SeededKey[],
    ): Promise<[KeyResolution[], number]> {
      const busyConnectionAcquired = once(singleConnectionPool, 'acquire');
      const busy = singleConnectionPool.query('SELECT pg_sleep(0.2)');
      await busyConnectionAcquired;
      acquisitions = 0;
      const pending: Array<KeyResolution | Promise<KeyResolution>> = [];
      for (const key of keys) {
        pending.push(resolver.resolve(key.plaintext));
        await new Promise((resolve) => setImmediate(resolve));
      }
      await busy;
      const resolutions = await Promise.all(pending);
      return [resolutions, acquisitions];
    }

    it('shares one database query among concurrent misses for the same key', async () => {
      const key = await seedKey();
      const resolver = await startResolver(uniqueChannel(), {}, singleConnectionPool);

      const [resolutions, lookups] = await resolveWhileBusy(
        resolver,
        Array.from({ length: 10 }, () => key),
      );

      expect(lookups).toBe(1);
      for (const resolution of resolutions) expect(expectResolved(resolution).id).toBe(key.id);
    });

    it('queries once per distinct key among concurrent misses', async () => {
      const first = await seedKey();
      const second = await seedKey();
      const resolver = await startResolver(uniqueChannel(), {}, singleConnectionPool);

      const [resolutions, lookups] = await resolveWhileBusy(resolver, [first, second, first, second]);

      expect(lookups).toBe(2);
      expect(resolutions.map((resolution) => expectResolved(resolution).id)).toEqual([
        first.id,
        second.id,
        first.id,
        second.id,
      ]);
    });
  });
});
