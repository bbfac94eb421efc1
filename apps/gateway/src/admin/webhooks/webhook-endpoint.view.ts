import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES } from '@gateway/webhooks';
import { WEBHOOK_ENDPOINT_STATUSES } from './webhook-endpoint.dto';

/** An endpoint as the admin API shows it: never its secret, which only its creation and rotation answer. */
export class WebhookEndpointView {
  @ApiProperty({ example: 'we_3q2kX0b9YzT1mJ8a4cN7vw' })
  id: string;

  @ApiProperty()
  url: string;

  @ApiProperty({ enum: [...WEBHOOK_EVENT_TYPES], isArray: true })
  events: string[];

  @ApiProperty({ type: String, nullable: true, description: "null: every account's events." })
  accountId: string | null;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ enum: [...WEBHOOK_ENDPOINT_STATUSES] })
  status: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why it was disabled, when it was by a 410 Gone.',
  })
  disabledReason: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Until then the secret before the last rotation signs too (a second signature).',
  })
  previousSecretExpiresAt: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class CreatedWebhookEndpointView extends WebhookEndpointView {
  @ApiProperty({
    description: 'The signing secret (Standard Webhooks form); shown this once, stored encrypted.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;
}

export class WebhookAttemptView {
  @ApiProperty({ type: 'integer', nullable: true, description: 'null when no answer came.' })
  statusCode: number | null;

  @ApiProperty({ type: 'integer' })
  latencyMs: number;

  @ApiProperty({ type: String, nullable: true })
  error: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class WebhookDeliveryView {
  @ApiProperty({ description: 'The message id, sent as webhook-id on every attempt.', example: 'msg_0f4c…' })
  id: string;

  @ApiProperty({ example: 'evt_Q2hs0aXb1cVdZe3fGh4iJw' })
  eventId: string;

  @ApiProperty({ enum: [...WEBHOOK_EVENT_TYPES] })
  eventType: string;

  @ApiProperty({ description: 'The task or asset the event is about.' })
  subjectId: string;

  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] })
  status: string;

  @ApiProperty({ format: 'date-time', description: 'When the next attempt is due (pending only).' })
  nextAttemptAt: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  deliveredAt: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: WebhookAttemptView, isArray: true, description: 'Every attempt, oldest first.' })
  attempts: WebhookAttemptView[];
}
