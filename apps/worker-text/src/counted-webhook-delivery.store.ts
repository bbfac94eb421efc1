import type { DomainMetrics } from '@gateway/observability';
import { WebhookDeliveryStore, type AttemptOutcome, type ClaimedDelivery } from '@gateway/webhooks';
import type { Pool } from 'pg';

type NextState = Parameters<WebhookDeliveryStore['record']>[1];

/**
 * The delivery store, counting each attempt's outcome once it is recorded (a retry is an attempt that
 * failed with attempts left): gateway_webhook_deliveries_total{outcome}.
 */
export class CountedWebhookDeliveryStore extends WebhookDeliveryStore {
  constructor(
    pool: Pool,
    private readonly metrics: Pick<DomainMetrics, 'webhookDeliveries'>,
  ) {
    super(pool);
  }

  override async record(
    delivery: Pick<ClaimedDelivery, 'id' | 'lease' | 'attempts'>,
    next: NextState,
    outcome: AttemptOutcome,
  ): Promise<void> {
    await super.record(delivery, next, outcome);
    this.metrics.webhookDeliveries.inc({ outcome: next.status === 'pending' ? 'retry' : next.status });
  }

  override async recordGone(
    delivery: Pick<ClaimedDelivery, 'id' | 'lease' | 'attempts'>,
    outcome: AttemptOutcome,
    reason: string,
  ): Promise<void> {
    await super.recordGone(delivery, outcome, reason);
    this.metrics.webhookDeliveries.inc({ outcome: 'failed' });
  }
}
