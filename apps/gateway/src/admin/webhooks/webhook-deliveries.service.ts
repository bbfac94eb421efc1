import { Inject, Injectable } from '@nestjs/common';
import type { PrismaClient, WebhookDelivery } from '@gateway/db';
import { isWebhookDeliveryId } from '@gateway/webhooks';
import { PRISMA } from '../../platform/infrastructure/tokens';
import { parseAdminInput } from '../shared/admin-input.util';
import { toWebhookDeliveryView } from './webhook-endpoint.mapper';
import { WebhookDeliveryQueryDto } from './webhook-delivery-query.dto';
import type { WebhookDeliveryView } from './webhook-endpoint.view';
import { deliveryNotFound, WebhooksService } from './webhooks.service';

/** The deliveries of an endpoint, newest first, each with its attempts; and a redelivery. */
@Injectable()
export class WebhookDeliveriesService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly endpoints: WebhooksService,
  ) {}

  async list(endpointId: string, query: unknown): Promise<WebhookDeliveryView[]> {
    const { limit } = parseAdminInput(WebhookDeliveryQueryDto, query);
    await this.endpoints.find(endpointId);
    const deliveries = await this.prisma.webhookDelivery.findMany({
      where: { endpointId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
    });
    return this.withEventsAndAttempts(deliveries);
  }

  /**
   * Sends the delivery again under the same webhook-id (receivers de-duplicate by it), with a new round
   * of the retry schedule: at once if it had ended, sooner if it was waiting. One being sent right
   * now is left to its attempt. An endpoint that is disabled receives it once enabled again.
   */
  async redeliver(endpointId: string, deliveryId: string): Promise<WebhookDeliveryView> {
    await this.endpoints.find(endpointId);
    if (!isWebhookDeliveryId(deliveryId)) throw deliveryNotFound(deliveryId);
    const found = await this.prisma.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId } });
    if (!found) throw deliveryNotFound(deliveryId);
    await this.prisma.$executeRaw`
      UPDATE webhook_deliveries
         SET status = 'pending', attempts = 0, next_attempt_at = now() AT TIME ZONE 'UTC',
             updated_at = now() AT TIME ZONE 'UTC'
       WHERE id = ${deliveryId}
         AND (leased_until IS NULL OR leased_until <= now() AT TIME ZONE 'UTC' OR status <> 'pending')`;
    const delivery = await this.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    const [view] = await this.withEventsAndAttempts([delivery]);
    return view;
  }

  private async withEventsAndAttempts(
    deliveries: readonly WebhookDelivery[],
  ): Promise<WebhookDeliveryView[]> {
    const ids = deliveries.map((delivery) => delivery.id);
    const [events, attempts] = await Promise.all([
      this.prisma.webhookEvent.findMany({
        where: { id: { in: deliveries.map((delivery) => delivery.eventId) } },
        select: { id: true, type: true, subjectId: true },
      }),
      this.prisma.webhookAttempt.findMany({
        where: { deliveryId: { in: ids } },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      }),
    ]);
    const eventById = new Map(events.map((event) => [event.id, event]));
    return deliveries.map((delivery) =>
      toWebhookDeliveryView(
        { ...delivery, event: eventById.get(delivery.eventId) ?? { type: 'unknown', subjectId: '' } },
        attempts.filter((attempt) => attempt.deliveryId === delivery.id),
      ),
    );
  }
}
