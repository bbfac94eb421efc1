import { randomBytes } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import type { Pool } from 'pg';
import { loadConfig } from '@gateway/config';
import { createPgPool, createPrismaClient, type Asset, type Prisma, type PrismaClient } from '@gateway/db';
import {
  createUndiciHttpClient,
  systemClock,
  type AssetAdapter,
  type ClosableUpstreamHttpClient,
} from '@gateway/providers-core';
import { silentAdapterLogger } from '@gateway/providers-core/testing';
import { assetAdapterFor, channelTypeDefinition } from '@gateway/providers';
import { encryptSecret, sealSecretSettings } from '@gateway/routing';
import { startSimulator, type RunningSimulator } from '@gateway/simulators';
import { QUEUE_NAMES } from '@gateway/tasks';
import { createTestDatabase, type TestDatabase } from '@gateway/testing';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const ASSET_ACCOUNT_ID = 'acct_assets';
const CHANNEL_ID = 'chan_eta';
const GROUP_ID = 'group_1';

/**
 * What worker-assets works on, for its tests: a database with an eta channel and one asset group, the
 * eta control-plane simulator (reached through `controlPlanePath`, which may carry a `/@…` directive
 * prefix), the worker's environment, and assets uploaded on the control plane (through the provider's
 * adapter, as the gateway's CreateAsset does) with their Processing rows.
 */
export class EtaAssetLibrary {
  private constructor(
    readonly database: TestDatabase,
    readonly pool: Pool,
    readonly prisma: PrismaClient,
    readonly simulator: RunningSimulator,
    private readonly http: ClosableUpstreamHttpClient,
    /** The worker's environment: a Redis prefix of its own, polls every 20–100 ms. */
    readonly env: Record<string, string>,
    private readonly settings: { controlPlaneUrl: string; controlPlaneKey: string },
    private readonly upstreamGroupId: string,
  ) {}

  static async start(controlPlanePath = '/eta-control'): Promise<EtaAssetLibrary> {
    const [database, simulator] = await Promise.all([createTestDatabase(), startSimulator()]);
    const pool = createPgPool(database.url, 4);
    const prisma = createPrismaClient(pool);
    const http = createUndiciHttpClient();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: `test-wassets-${randomBytes(4).toString('hex')}`,
      ADMIN_TOKEN: 'test-admin-token-0123456789',
      MASTER_KEY: '12'.repeat(32),
      LOG_LEVEL: 'silent',
      TASK_MIN_POLL_DELAY_MS: '20',
      TASK_MAX_POLL_DELAY_MS: '100',
    };
    const { masterKeys } = loadConfig(env);
    const settings = {
      controlPlaneUrl: `${simulator.url}${controlPlanePath}`,
      controlPlaneKey: 'sim-eta-ak|sim-eta-sk',
    };
    const masterKey = { key: masterKeys.currentKey, version: masterKeys.currentVersion };
    const secret = encryptSecret('sim-eta-key', masterKey);
    const etaSettings = channelTypeDefinition('eta')?.settings;
    if (!etaSettings) throw new Error('eta has no definition');
    await prisma.channel.create({
      data: {
        id: CHANNEL_ID,
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
    const context = EtaAssetLibrary.contextOf(simulator, http, settings);
    const group = await control().createGroup({ name: 'kites', description: '' }, context);
    await prisma.assetGroup.create({
      data: {
        id: GROUP_ID,
        accountId: ASSET_ACCOUNT_ID,
        channelId: CHANNEL_ID,
        upstreamId: group.id,
        name: 'kites',
      },
    });
    return new EtaAssetLibrary(database, pool, prisma, simulator, http, env, settings, group.id);
  }

  /** The queue worker-assets consumes, under the environment's prefix. */
  queue(): Queue {
    return new Queue(QUEUE_NAMES.assetTasks, {
      connection: { url: REDIS_URL },
      prefix: this.env.REDIS_PREFIX,
    });
  }

  /** That queue's events (BullMQ's event stream), from the moment it is ready. */
  queueEvents(): QueueEvents {
    return new QueueEvents(QUEUE_NAMES.assetTasks, {
      connection: { url: REDIS_URL },
      prefix: this.env.REDIS_PREFIX,
    });
  }

  /** An asset uploaded on the control plane (its name may carry directives) and its Processing row. */
  async uploaded(id: string, name: string): Promise<void> {
    const url = 'https://cdn.test/kite.png';
    const upstream = await control().createAsset(
      { groupId: this.upstreamGroupId, url, name, kind: 'image' },
      EtaAssetLibrary.contextOf(this.simulator, this.http, this.settings),
    );
    await this.processingRow({ id, upstreamId: upstream.id, name, url });
  }

  /** A Processing row for an asset the upstream never had. */
  unknownToUpstream(id: string): Promise<void> {
    return this.processingRow({
      id,
      upstreamId: 'asset-20260101000000-zzzzz',
      name: 'gone',
      url: 'https://cdn.test/gone.png',
    });
  }

  rowOf(id: string): Promise<Asset> {
    return this.prisma.asset.findUniqueOrThrow({ where: { id } });
  }

  async close(): Promise<void> {
    await this.http.close();
    await this.simulator.close();
    await this.prisma.$disconnect();
    await this.pool.end();
    await this.database.drop();
  }

  private async processingRow(asset: { id: string; upstreamId: string; name: string; url: string }) {
    await this.prisma.asset.create({
      data: {
        ...asset,
        accountId: ASSET_ACCOUNT_ID,
        groupId: GROUP_ID,
        channelId: CHANNEL_ID,
        assetType: 'Image',
      },
    });
  }

  private static contextOf(
    simulator: RunningSimulator,
    http: ClosableUpstreamHttpClient,
    settings: { controlPlaneUrl: string; controlPlaneKey: string },
  ) {
    return {
      channel: { baseUrl: simulator.url, credentials: { apiKey: 'sim-eta-key' }, settings },
      http,
      clock: systemClock,
      logger: silentAdapterLogger,
    };
  }
}

/** The eta control plane, through the registry as worker-assets reaches it. */
function control(): AssetAdapter {
  const adapter = assetAdapterFor('eta');
  if (!adapter) throw new Error('eta has no asset capability');
  return adapter;
}
