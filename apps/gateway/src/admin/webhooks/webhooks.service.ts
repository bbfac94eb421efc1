import { Inject, Injectable } from '@nestjs/common';
import type { GatewayConfig } from '@gateway/config';
import type { PrismaClient, WebhookEndpoint } from '@gateway/db';
import {
  isWebhookEndpointId,
  newWebhookEndpointId,
  newWebhookSecret,
  PREVIOUS_SECRET_GRACE_MS,
  sealWebhookSecret,
} from '@gateway/webhooks';
import { GatewayError } from '@gateway/errors';
import { CONFIG, PRISMA } from '../../platform/infrastructure/tokens';
import { missingRecordAs } from '../shared/prisma-error.util';
import { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './webhook-endpoint.dto';
import { toWebhookEndpointView } from './webhook-endpoint.mapper';
import type { CreatedWebhookEndpointView, WebhookEndpointView } from './webhook-endpoint.view';
import { assertDeliverableUrl } from './webhook-url.check';

/**
 * Webhook endpoints: their URL checked against the SSRF policy when written, their signing secret
 * shown once and stored encrypted under the master key (as channel secrets are).
 */
@Injectable()
export class WebhooksService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  async create(input: CreateWebhookEndpointDto): Promise<CreatedWebhookEndpointView> {
    await assertDeliverableUrl(input.url, this.config);
    if (input.accountId !== undefined) await this.assertAccount(input.accountId);
    const secret = newWebhookSecret();
    const sealed = sealWebhookSecret(secret, this.config.masterKeys);
    const row = await this.prisma.webhookEndpoint.create({
      data: {
        id: newWebhookEndpointId(),
        url: input.url,
        events: [...new Set(input.events)],
        accountId: input.accountId ?? null,
        description: input.description ?? null,
        secretCiphertext: sealed.ciphertext,
        secretKeyVersion: sealed.keyVersion,
      },
    });
    return { ...toWebhookEndpointView(row), secret };
  }

  async list(): Promise<WebhookEndpointView[]> {
    const rows = await this.prisma.webhookEndpoint.findMany({
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return rows.map((row) => toWebhookEndpointView(row));
  }

  async get(id: string): Promise<WebhookEndpointView> {
    return toWebhookEndpointView(await this.find(id));
  }

  async update(id: string, input: UpdateWebhookEndpointDto): Promise<WebhookEndpointView> {
    await this.find(id);
    if (input.url !== undefined) await assertDeliverableUrl(input.url, this.config);
    if (typeof input.accountId === 'string') await this.assertAccount(input.accountId);
    const row = await this.prisma.webhookEndpoint
      .update({
        where: { id },
        data: {
          ...(input.url !== undefined ? { url: input.url } : {}),
          ...(input.events !== undefined ? { events: [...new Set(input.events)] } : {}),
          ...(input.accountId !== undefined ? { accountId: input.accountId } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          // Enabled again by its operator, an endpoint disabled by a 410 forgets why.
          ...(input.status !== undefined
            ? { status: input.status, ...(input.status === 'enabled' ? { disabledReason: null } : {}) }
            : {}),
        },
      })
      .catch(missingRecordAs(() => endpointNotFound(id)));
    return toWebhookEndpointView(row);
  }

  /** The endpoint and its deliveries (their attempts too): nothing more is sent to it. */
  async remove(id: string): Promise<void> {
    if (!isWebhookEndpointId(id)) throw endpointNotFound(id);
    const removed = await this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`
        DELETE FROM webhook_attempts
         WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = ${id})`;
      await tx.webhookDelivery.deleteMany({ where: { endpointId: id } });
      return (await tx.webhookEndpoint.deleteMany({ where: { id } })).count;
    });
    if (removed === 0) throw endpointNotFound(id);
  }

  /**
   * A new secret, shown once; the one it replaces keeps signing beside it (a second signature in the
   * header) for 24 hours, so receivers can switch without losing a delivery. A secret still in its
   * grace period is dropped by a second rotation.
   */
  async rotateSecret(id: string): Promise<CreatedWebhookEndpointView> {
    const current = await this.find(id);
    const secret = newWebhookSecret();
    const sealed = sealWebhookSecret(secret, this.config.masterKeys);
    const row = await this.prisma.webhookEndpoint.update({
      where: { id },
      data: {
        secretCiphertext: sealed.ciphertext,
        secretKeyVersion: sealed.keyVersion,
        previousSecretCiphertext: current.secretCiphertext,
        previousSecretKeyVersion: current.secretKeyVersion,
        previousSecretExpiresAt: new Date(Date.now() + PREVIOUS_SECRET_GRACE_MS),
      },
    });
    return { ...toWebhookEndpointView(row), secret };
  }

  async find(id: string): Promise<WebhookEndpoint> {
    const row = isWebhookEndpointId(id)
      ? await this.prisma.webhookEndpoint.findUnique({ where: { id } })
      : null;
    if (!row) throw endpointNotFound(id);
    return row;
  }

  private async assertAccount(accountId: string): Promise<void> {
    const account = await this.prisma.account.findUnique({ where: { id: accountId }, select: { id: true } });
    if (!account) throw GatewayError.invalidRequest(`No account has the id "${accountId}".`, 'accountId');
  }
}

export function endpointNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No webhook endpoint has the id "${id.slice(0, 100)}".`);
}

export function deliveryNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No delivery of this endpoint has the id "${id.slice(0, 100)}".`);
}
