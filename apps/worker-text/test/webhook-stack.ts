import { randomBytes } from 'node:crypto';
import { loadConfig, type GatewayConfig, type WebhookSettings } from '@gateway/config';
import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { AssetStatusStore, TaskStore } from '@gateway/tasks';
import { createTestDatabase, type TestDatabase } from '@gateway/testing';
import { startTestDeliveryWorker } from '@gateway/testing-workers/webhooks';
import {
  newWebhookEndpointId,
  newWebhookSecret,
  PREVIOUS_SECRET_GRACE_MS,
  sealWebhookSecret,
  WEBHOOK_EVENT_TYPES,
  type WebhookDeliveryWorker,
} from '@gateway/webhooks';
import type { Pool } from 'pg';

export const ACCOUNT_A = 'acct_webhooks_a';
export const ACCOUNT_B = 'acct_webhooks_b';

export interface EndpointOptions {
  url: string;
  events?: readonly string[];
  accountId?: string;
}

/**
 * A database with the outbox tables, the task and asset writers that fill it (the real ones), and
 * delivery workers as worker-text builds them, configured by `env` (a short retry schedule …).
 */
export class WebhookStack {
  readonly pool: Pool;
  readonly prisma: PrismaClient;
  readonly tasks: TaskStore;
  readonly assets: AssetStatusStore;
  private readonly workers: WebhookDeliveryWorker[] = [];
  private sequence = 0;

  private constructor(
    private readonly database: TestDatabase,
    readonly config: GatewayConfig,
  ) {
    this.pool = createPgPool(database.url, 8);
    this.prisma = createPrismaClient(this.pool);
    this.tasks = new TaskStore(this.prisma, this.pool);
    this.assets = new AssetStatusStore(this.prisma);
  }

  static async start(env: Record<string, string>): Promise<WebhookStack> {
    const database = await createTestDatabase();
    const config = loadConfig({
      DATABASE_URL: database.url,
      ADMIN_TOKEN: 'webhooks-admin-token-0123456789',
      MASTER_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      ...env,
    });
    return new WebhookStack(database, config);
  }

  get databaseName(): string {
    return this.database.name;
  }

  /** A delivery worker as worker-text runs it, started. */
  startWorker(logLines: string[] = [], settings: Partial<WebhookSettings> = {}): WebhookDeliveryWorker {
    const worker = startTestDeliveryWorker({
      pool: this.pool,
      prisma: this.prisma,
      config: this.config,
      settings,
      logLines,
    });
    this.workers.push(worker);
    return worker;
  }

  /** An endpoint row as POST /admin/webhooks writes it (its URL is not checked here: deliveries check it). */
  async addEndpoint(options: EndpointOptions): Promise<{ id: string; secret: string }> {
    const secret = newWebhookSecret();
    const sealed = sealWebhookSecret(secret, this.config.masterKeys);
    const id = newWebhookEndpointId();
    await this.prisma.webhookEndpoint.create({
      data: {
        id,
        url: options.url,
        events: [...(options.events ?? WEBHOOK_EVENT_TYPES)],
        accountId: options.accountId ?? null,
        secretCiphertext: sealed.ciphertext,
        secretKeyVersion: sealed.keyVersion,
      },
    });
    return { id, secret };
  }

  /** What POST /admin/webhooks/{id}/rotate-secret writes. */
  async rotateSecret(endpointId: string): Promise<string> {
    const current = await this.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    const secret = newWebhookSecret();
    const sealed = sealWebhookSecret(secret, this.config.masterKeys);
    await this.prisma.webhookEndpoint.update({
      where: { id: endpointId },
      data: {
        secretCiphertext: sealed.ciphertext,
        secretKeyVersion: sealed.keyVersion,
        previousSecretCiphertext: current.secretCiphertext,
        previousSecretKeyVersion: current.secretKeyVersion,
        previousSecretExpiresAt: new Date(Date.now() + PREVIOUS_SECRET_GRACE_MS),
      },
    });
    return secret;
  }

  /** A task of `kind` taken to `status` by the task platform's own compare-and-swap transitions. */
  async finishTask(
    kind: 'video' | 'music' | 'image',
    status: 'completed' | 'failed' | 'cancelled',
    accountId = ACCOUNT_A,
  ): Promise<string> {
    this.sequence += 1;
    const prefix = kind === 'image' ? 'bt' : kind;
    const id = `${prefix}_${String(this.sequence).padStart(22, '0')}`;
    await this.tasks.create({
      id,
      kind,
      keyId: 'key_webhooks',
      accountId,
      model: `${kind}-model`,
      request: { prompt: `a ${kind} of a lighthouse`, seconds: 5, size: '720P' },
      deadlineAt: new Date(Date.now() + 600_000),
    });
    if (status === 'cancelled') {
      await this.tasks.transition(id, 'queued', 'cancelled', { failureReason: 'cancelled by its client' });
      return id;
    }
    await this.tasks.transition(id, 'queued', 'processing');
    const patch =
      status === 'completed'
        ? { progress: 100, resultUrl: 'https://upstream.example.test/out', completedAt: new Date() }
        : { failureReason: 'content_policy: the prompt was refused' };
    if (!(await this.tasks.transition(id, 'processing', status, patch))) throw new Error('transition lost');
    return id;
  }

  /** An asset taken out of Processing by worker-assets' own compare-and-swap. */
  async finishAsset(status: 'Active' | 'Failed', accountId = ACCOUNT_A): Promise<string> {
    this.sequence += 1;
    const groupId = `group_${this.sequence}`;
    const id = `asset_${this.sequence}`;
    await this.prisma.assetGroup.create({
      data: { id: groupId, accountId, channelId: 'ch_theta', upstreamId: `up-${groupId}`, name: 'refs' },
    });
    await this.prisma.asset.create({
      data: {
        id,
        accountId,
        groupId,
        channelId: 'ch_theta',
        upstreamId: `up-${id}`,
        name: 'reference',
        url: 'https://files.example.test/ref.png',
        assetType: 'Image',
      },
    });
    const outcome =
      status === 'Active'
        ? ({ status: 'Active' } as const)
        : ({ status: 'Failed', failureReason: 'InvalidImage: not an image' } as const);
    if (!(await this.assets.finish(id, outcome))) throw new Error('asset transition lost');
    return id;
  }

  deliveriesOf(endpointId: string) {
    return this.prisma.webhookDelivery.findMany({ where: { endpointId }, orderBy: { createdAt: 'asc' } });
  }

  attemptsOf(deliveryId: string) {
    return this.prisma.webhookAttempt.findMany({ where: { deliveryId }, orderBy: { id: 'asc' } });
  }

  async stopWorkers(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((worker) => worker.stop()));
  }

  async close(): Promise<void> {
    await this.stopWorkers();
    await this.prisma.$disconnect();
    await this.pool.end();
    await this.database.drop();
  }
}
