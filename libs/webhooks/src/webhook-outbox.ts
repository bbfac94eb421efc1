import type { Prisma } from '@gateway/db';
import type { WebhookEventType } from './webhook-event-types';
import { newWebhookEventId } from './webhook-ids.util';

/** What the outbox needs of a Prisma client: a transaction's, so the event commits with its cause. */
export type OutboxWriter = Pick<Prisma.TransactionClient, '$executeRaw'>;

export interface OutboxEvent {
  type: WebhookEventType;
  /** The account the task or asset belongs to: only its endpoints, and those of every account, get it. */
  accountId: string;
  /** The task or asset the event is about; its body is rendered from that row when first delivered. */
  subjectId: string;
}

/**
 * Writes an event and one delivery per enabled endpoint subscribed to it, in one statement, on the
 * caller's transaction (the one of the terminal transition that caused it): the event exists if and
 * only if the transition committed. Nothing is written when no endpoint wants it. Returns the number
 * of deliveries written. The delivery id is the Standard Webhooks message id (`webhook-id`), the same
 * on every attempt.
 */
export async function recordWebhookEvent(db: OutboxWriter, event: OutboxEvent): Promise<number> {
  const { type, accountId, subjectId } = event;
  return db.$executeRaw`
    WITH targets AS (
      SELECT id FROM webhook_endpoints
       WHERE status = 'enabled' AND ${type} = ANY(events) AND (account_id IS NULL OR account_id = ${accountId})
    ), event AS (
      INSERT INTO webhook_events (id, type, account_id, subject_id, created_at)
      SELECT ${newWebhookEventId()}, ${type}, ${accountId}, ${subjectId}, now() AT TIME ZONE 'UTC'
       WHERE EXISTS (SELECT 1 FROM targets)
      RETURNING id
    )
    INSERT INTO webhook_deliveries (id, event_id, endpoint_id, next_attempt_at, created_at, updated_at)
    SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), event.id, targets.id,
           now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
      FROM event CROSS JOIN targets`;
}
