import { randomBytes, randomUUID } from 'node:crypto';
import { createPgPool, createPrismaClient, type Prisma, type PrismaClient } from '@gateway/db';
import { createTestDatabase, type TestDatabase } from '@gateway/testing';
import Redis from 'ioredis';
import type { Pool } from 'pg';
import { channelTypeDefinition } from '@gateway/providers';
import { encryptSecret } from '../secret/channel-secret.cipher';
import { sealSecretSettings } from '../secret/secret-settings.sealing';
import { ChannelCatalog, type ChannelCatalogOptions } from './channel-catalog';
import { pgChannelRowSource } from './channel-row.source';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MASTER_KEY = randomBytes(32);
const KEYRING = new Map([[1, MASTER_KEY]]);

interface ChannelFields {
  name?: string;
  type?: string;
  secret?: string;
  models?: Prisma.InputJsonValue;
  settings?: Prisma.InputJsonValue;
  priority?: number;
  weight?: number;
  status?: string;
  secretKeyVersion?: number;
}

async function eventually(check: () => boolean, withinMs = 1000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('ChannelCatalog (Postgres + Redis)', () => {
  let database: TestDatabase;
  let pool: Pool;
  let prisma: PrismaClient;
  let publisher: Redis;
  const subscribers: Redis[] = [];
  const catalogs: ChannelCatalog[] = [];
  let warnings: string[];

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPgPool(database.url, 4);
    prisma = createPrismaClient(pool);
    publisher = new Redis(REDIS_URL);
  });

  beforeEach(async () => {
    warnings = [];
    await prisma.channel.deleteMany();
  });

  afterEach(async () => {
    await Promise.all(catalogs.splice(0).map((catalog) => catalog.stop()));
    subscribers.splice(0).forEach((subscriber) => subscriber.disconnect());
  });

  afterAll(async () => {
    publisher.disconnect();
    await prisma.$disconnect();
    await pool.end();
    await database.drop();
  });

  async function startCatalog(
    channelName: string,
    options: Partial<ChannelCatalogOptions> = {},
  ): Promise<ChannelCatalog> {
    const subscriber = new Redis(REDIS_URL);
    subscribers.push(subscriber);
    const catalog = new ChannelCatalog(pgChannelRowSource(pool), subscriber, publisher, {
      channelName,
      keyring: KEYRING,
      refreshIntervalMs: 60_000,
      logger: { warn: (_fields, message) => warnings.push(message) },
      ...options,
    });
    catalogs.push(catalog);
    await catalog.start();
    return catalog;
  }

  async function seedChannel(fields: ChannelFields = {}): Promise<string> {
    const id = `ch_${randomUUID()}`;
    const encrypted = encryptSecret(fields.secret ?? 'upstream-secret-0000', { key: MASTER_KEY, version: 1 });
    await prisma.channel.create({
      data: {
        id,
        type: fields.type ?? 'compat',
        name: fields.name ?? id,
        baseUrl: 'http://127.0.0.1:9',
        secretCiphertext: encrypted.ciphertext,
        secretKeyVersion: fields.secretKeyVersion ?? encrypted.version,
        secretTail: encrypted.tail,
        models: fields.models ?? [{ model: 'img-2' }],
        settings: fields.settings,
        priority: fields.priority ?? 0,
        weight: fields.weight ?? 1,
        status: fields.status ?? 'enabled',
      },
    });
    return id;
  }

  const uniqueChannel = () => `test:${randomUUID()}:channel-changes`;

  it('offers the enabled channels of a model with parsed credentials and mapped model ids', async () => {
    const mapped = await seedChannel({
      name: 'mapped',
      type: 'kappa',
      secret: 'first-secret-1111',
      models: [{ model: 'img-2', upstreamModel: 'image-two-upstream' }, { model: 'kappa-2.0-flash' }],
      priority: 5,
      weight: 3,
    });
    const plain = await seedChannel({ name: 'plain', secret: 'second-secret-2222', models: ['img-2'] });
    await seedChannel({ name: 'off', status: 'disabled', models: ['img-2', 'draw-3'] });
    const catalog = await startCatalog(uniqueChannel());

    const candidates = catalog.candidatesFor('img-2').sort((a, b) => a.name.localeCompare(b.name));

    expect(candidates).toEqual([
      {
        id: mapped,
        name: 'mapped',
        type: 'kappa',
        connection: {
          baseUrl: 'http://127.0.0.1:9',
          credentials: { apiKey: 'first-secret-1111' },
          settings: {},
        },
        upstreamModel: 'image-two-upstream',
        priority: 5,
        weight: 3,
      },
      expect.objectContaining({
        id: plain,
        connection: expect.objectContaining({ credentials: { apiKey: 'second-secret-2222' } }),
        upstreamModel: 'img-2',
      }),
    ]);
    expect(catalog.candidatesFor('kappa-2.0-flash').map((c) => c.upstreamModel)).toEqual(['kappa-2.0-flash']);
    expect(catalog.candidatesFor('draw-3')).toEqual([]);
    expect(catalog.offeredModels()).toEqual(['img-2', 'kappa-2.0-flash']);
  });

  it('hands out copies, so a caller reordering candidates changes nothing for the next one', async () => {
    await seedChannel({ name: 'a' });
    await seedChannel({ name: 'b' });
    const catalog = await startCatalog(uniqueChannel());
    const before = catalog.candidatesFor('img-2').map((c) => c.id);

    catalog.candidatesFor('img-2').reverse();

    expect(catalog.candidatesFor('img-2').map((c) => c.id)).toEqual(before);
  });

  it('skips, with a warning, channels of an unknown type or with a secret it cannot decrypt', async () => {
    await seedChannel({ name: 'strange', type: 'no-such-type' });
    await seedChannel({ name: 'rotated-away', secretKeyVersion: 9 });
    const good = await seedChannel({ name: 'good' });
    const catalog = await startCatalog(uniqueChannel());

    expect(catalog.candidatesFor('img-2').map((c) => c.id)).toEqual([good]);
    expect(warnings.sort()).toEqual([
      'channel skipped: secret cannot be decrypted',
      'channel skipped: unknown channel type',
    ]);
  });

  it('skips, with a warning that never holds the secret, channels whose secret or settings do not fit their type', async () => {
    const composite = 'AccessKey0001|SecretKey0002';
    const reasons: unknown[] = [];
    await seedChannel({ name: 'composite-secret', secret: composite });
    await seedChannel({ name: 'stray-setting', settings: { region: 'north' } });
    const good = await seedChannel({ name: 'good' });
    const catalog = await startCatalog(uniqueChannel(), {
      logger: {
        warn: (fields, message) => {
          warnings.push(message);
          reasons.push(fields.reason);
        },
      },
    });

    expect(catalog.candidatesFor('img-2').map((c) => c.id)).toEqual([good]);
    expect(warnings).toEqual([
      'channel skipped: secret or settings do not fit its channel type',
      'channel skipped: secret or settings do not fit its channel type',
    ]);
    expect(reasons.sort()).toEqual([
      'secret must be a single API key (no spaces, line breaks or "|")',
      'settings.region is not a setting of this channel type',
    ]);
    expect(JSON.stringify(reasons)).not.toContain('SecretKey0002');
  });

  it("decrypts a type's secret settings before parsing them, and skips a row holding one in clear", async () => {
    const controlPlane = {
      controlPlaneUrl: 'http://127.0.0.1:9/control',
      controlPlaneKey: 'ak-01|sk-clear-5e1',
    };
    const etaSettings = channelTypeDefinition('eta')?.settings;
    if (!etaSettings) throw new Error('eta has no definition');
    const sealed = await seedChannel({
      name: 'sealed-control-plane',
      type: 'eta',
      settings: sealSecretSettings(etaSettings, controlPlane, {
        key: MASTER_KEY,
        version: 1,
      }) as Prisma.InputJsonObject,
    });
    await seedChannel({ name: 'clear-control-plane', type: 'eta', settings: controlPlane });
    const reasons: unknown[] = [];
    const catalog = await startCatalog(uniqueChannel(), {
      logger: {
        warn: (fields, message) => {
          warnings.push(message);
          reasons.push(fields.reason);
        },
      },
    });

    const [candidate] = catalog.candidatesFor('img-2');
    expect(catalog.candidatesFor('img-2')).toHaveLength(1);
    expect(candidate).toMatchObject({ id: sealed, connection: { settings: controlPlane } });
    expect(warnings).toEqual(['channel skipped: secret cannot be decrypted']);
    expect(reasons).toEqual([
      'channel secret cannot be decrypted: settings.controlPlaneKey is not stored encrypted; send it again',
    ]);
  });

  it('applies an admin change at once on the changing instance and within a second on the others', async () => {
    const channelName = uniqueChannel();
    const instanceA = await startCatalog(channelName);
    const instanceB = await startCatalog(channelName);
    expect(instanceB.offeredModels()).toEqual([]);

    const added = await seedChannel({ models: ['draw-3'] });
    await instanceA.publishChange();

    expect(instanceA.candidatesFor('draw-3').map((c) => c.id)).toEqual([added]);
    await eventually(() => instanceB.candidatesFor('draw-3').length === 1);

    await prisma.channel.update({ where: { id: added }, data: { status: 'disabled' } });
    await instanceA.publishChange();
    await eventually(() => instanceB.candidatesFor('draw-3').length === 0);
  });

  it('reloads on its timer when no message arrives', async () => {
    const catalog = await startCatalog(uniqueChannel(), { refreshIntervalMs: 50 });

    await seedChannel({ models: ['img-1'] });

    await eventually(() => catalog.offeredModels().includes('img-1'));
  });

  it('keeps serving the loaded channels when a reload fails', async () => {
    await seedChannel({ models: ['img-1'] });
    const brokenPool = createPgPool(database.url, 1);
    const subscriber = new Redis(REDIS_URL);
    subscribers.push(subscriber);
    const catalog = new ChannelCatalog(pgChannelRowSource(brokenPool), subscriber, publisher, {
      channelName: uniqueChannel(),
      keyring: KEYRING,
      refreshIntervalMs: 20,
      logger: { warn: (_fields, message) => warnings.push(message) },
    });
    catalogs.push(catalog);
    await catalog.start();

    await brokenPool.end();
    await eventually(() =>
      warnings.includes('channel catalog refresh failed; keeping the previous channels'),
    );

    expect(catalog.offeredModels()).toEqual(['img-1']);
  });

  it('stops following changes after stop()', async () => {
    const channelName = uniqueChannel();
    const instanceA = await startCatalog(channelName);
    const instanceB = await startCatalog(channelName);
    await instanceB.stop();

    await seedChannel({ models: ['img-1'] });
    await instanceA.publishChange();
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(instanceA.offeredModels()).toEqual(['img-1']);
    expect(instanceB.offeredModels()).toEqual([]);
  });
});
