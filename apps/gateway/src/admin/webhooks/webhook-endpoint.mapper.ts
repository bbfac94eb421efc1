import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookEvent } from '@gateway/db';
import type { WebhookDeliveryView, WebhookEndpointView } from './webhook-endpoint.view';

export function toWebhookEndpointView(row: WebhookEndpoint, now: Date = new Date()): WebhookEndpointView {
  const graceEnds = row.previousSecretExpiresAt;
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    accountId: row.accountId,
    description: row.description,
    status: row.status,
    disabledReason: row.disabledReason,
    previousSecretExpiresAt: graceEnds && graceEnds > now ? graceEnds.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export type DeliveryWithEvent = WebhookDelivery & { event: Pick<WebhookEvent, 'type' | 'subjectId'> };

export function toWebhookDeliveryView(
  delivery: DeliveryWithEvent,
  attempts: readonly WebhookAttempt[],
): WebhookDeliveryView {
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.event.type,
    subjectId: delivery.event.subjectId,
    status: delivery.status,
    nextAttemptAt: delivery.nextAttemptAt.toISOString(),
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
    attempts: attempts.map((attempt) => ({
      statusCode: attempt.statusCode,
      latencyMs: attempt.latencyMs,
      error: attempt.error,
      createdAt: attempt.createdAt.toISOString(),
    })),
  };
}
