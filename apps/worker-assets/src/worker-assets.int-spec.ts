import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue } from 'bullmq';
import type { Pool } from 'pg';
import { loadConfig } from '@gateway/config';
import { createPgPool, createPrismaClient, type Prisma, type PrismaClient } from '@gateway/db';
import {
  createUndiciHttpClient,
  systemClock,
  type ClosableUpstreamHttpClient,
} from '@gateway/providers-core';
import { silentAdapterLogger } from '@gateway/providers-core/testing';
import { assetAdapterFor, channelTypeDefinition } from '@gateway/providers';
import { encryptSecret, sealSecretSettings } from '@gateway/routing';
import { startSimulator, type RunningSimulator } from '@gateway/simulators';
import { enqueueAssetStatus, QUEUE_NAMES } from '@gateway/tasks';
import { createTestDatabase, waitFor, type TestDatabase } from '@gateway/testing';
import { WorkerAssetsModule } from './worker-assets.module';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ACCOUNT_ID = 'acct_assets';

/**
 * worker-assets against Postgres, Redis and the eta control-plane simulator: an asset uploaded on the
 * upstream (here through the provider's adapter, as the gateway's CreateAsset does) and recorded as a
 * Processing row ends Active or Failed as the upstream's processing does, and the sweep finds an asset
 * whose job was never enqueued.
 */
describe('worker-assets (Postgres, Redis, eta control plane)', () => {
  let database: TestDatabase;
  let pool: Pool;
  let prisma: PrismaClient;
  let simulator: RunningSimulator;
  let http: ClosableUpstreamHttpClient;
  let app: INestApplicationContext;
  let queue: Queue;
  let settings: { controlPlaneUrl: string; controlPlaneKey: string };
  let upstreamGroupId: string;

  beforeAll(async () => {
    [database, simulator] = await Promise.all([createTestDatabase(), startSimulator()]);
    pool = createPgPool(database.url, 4);
    prisma = createPrismaClient(pool);
    http = createUndiciHttpClient();
    const prefix = `test-wassets-${randomBytes(4).toString('hex')}`;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      ADMIN_TOKEN: 'test-admin-token-0123456789',
      MASTER_KEY: '12'.repeat(32),
      LOG_LEVEL: 'silent',
      TASK_MIN_POLL_DELAY_MS: '20',
      TASK_MAX_POLL_DELAY_MS: '100',
    };
    const { masterKeys } = loadConfig(env);
    settings = { controlPlaneUrl: `${simulator.url}/eta-control`, controlPlaneKey: 'sim-eta-ak|sim-eta-sk' };
    const masterKey = { key: masterKeys.currentKey, version: masterKeys.currentVersion };
    const secret = encryptSecret('sim-eta-key', masterKey);
    const etaSettings = channelTypeDefinition('eta')?.settings;
    if (!etaSettings) throw new Error('eta has no definition');
    await prisma.channel.create({
      data: {
        id: 'chan_eta',
        type: 'eta',
        name: 'eta channel',
        baseUrl: simulator.url,
        secretCiphertext: secret.ciphertext,
        secretKeyVersion: secret.version,
        secretTail: secret.tail,
        // Stored as the admin API stores it: the control-plane key sealed.
        settings: sealSecretSettings(etaSettings, settings, masterKey) as Prisma.InputJsonObject,
      },
    });
    upstreamGroupId = (await control().createGroup({ name: 'kites', description: '' }, context())).id;
    await prisma.assetGroup.create({
      data: {
        id: 'group_1',
        accountId: ACCOUNT_ID,
        channelId: 'chan_eta',
        upstreamId: upstreamGroupId,
        name: 'kites',
      },
    });
    queue = new Queue(QUEUE_NAMES.assetTasks, { connection: { url: REDIS_URL }, prefix });
    app = await NestFactory.createApplicationContext(
      WorkerAssetsModule.forRoot({ env, settings: { sweepIntervalMs: 200, idleAfterMs: 1 } }),
      { logger: false },
    );
  });

  afterAll(async () => {
    await app?.close();
    await queue?.obliterate({ force: true });
    await queue?.close();
    await http?.close();
    await simulator?.close();
    await prisma?.$disconnect();
    await pool?.end();
    await database?.drop();
  });

  /** The eta control plane, through the registry as worker-assets reaches it. */
  function control() {
    const adapter = assetAdapterFor('eta');
    if (!adapter) throw new Error('eta has no asset capability');
    return adapter;
  }

  function context() {
    return {
      channel: { baseUrl: simulator.url, credentials: { apiKey: 'sim-eta-key' }, settings },
      http,
      clock: systemClock,
      logger: silentAdapterLogger,
    };
  }

  /** An asset uploaded on the control plane (its name may carry directives) and its Processing row. */
  async function uploaded(id: string, name: string): Promise<void> {
    const upstream = await control().createAsset(
      { groupId: upstreamGroupId, url: 'https://cdn.test/kite.png', name, kind: 'image' },
      context(),
    );
    await prisma.asset.create({
      data: {
        id,
        accountId: ACCOUNT_ID,
        groupId: 'group_1',
        channelId: 'chan_eta',
        upstreamId: upstream.id,
        name,
        url: 'https://cdn.test/kite.png',
        assetType: 'Image',
      },
    });
  }

  const rowOf = (id: string) => prisma.asset.findUniqueOrThrow({ where: { id } });
  const settledRow = async (id: string) => {
    await waitFor(async () => (await rowOf(id)).status !== 'Processing', 20_000);
    return rowOf(id);
  };

  it('looks until the upstream has processed the asset: Active', async () => {
    await uploaded('asset_active', 'kite [[sim polls=3]]');
    await enqueueAssetStatus(queue, 'asset_active');
    expect(await settledRow('asset_active')).toMatchObject({ status: 'Active', failureReason: null });
  });

  it("records the upstream's failure of an asset: Failed with its code and message", async () => {
    await uploaded('asset_failed', 'x [[sim error=bad_request;error_after=2;code=Image.TooSmall]]');
    await enqueueAssetStatus(queue, 'asset_failed');
    const row = await settledRow('asset_failed');
    expect(row.status).toBe('Failed');
    expect(row.failureReason).toMatch(/^Image\.TooSmall: /);
  });

  it('finds an asset whose job was never enqueued with the sweep of assets left processing', async () => {
    await uploaded('asset_stranded', 'kite [[sim polls=1]]');
    expect(await settledRow('asset_stranded')).toMatchObject({ status: 'Active' });
  });

  it('fails an asset the upstream does not know', async () => {
    await prisma.asset.create({
      data: {
        id: 'asset_unknown',
        accountId: ACCOUNT_ID,
        groupId: 'group_1',
        channelId: 'chan_eta',
        upstreamId: 'asset-20260101000000-zzzzz',
        name: 'gone',
        url: 'https://cdn.test/gone.png',
        assetType: 'Image',
      },
    });
    const row = await settledRow('asset_unknown');
    expect(row.status).toBe('Failed');
    expect(row.failureReason).toMatch(/^NotFound\.Asset: /);
  });
});
