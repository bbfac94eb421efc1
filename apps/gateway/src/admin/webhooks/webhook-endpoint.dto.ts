import { EnumField, EnumListField, HttpUrlField, StringField } from '@gateway/contracts';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@gateway/webhooks';

/** enabled | disabled: an operator's switch, also flipped to disabled by an endpoint's 410 Gone. */
export const WEBHOOK_ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

/** Longest endpoint URL accepted (what a browser or a proxy still carries without trouble). */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

const EVENT_RULES = { minItems: 1, maxItems: WEBHOOK_EVENT_TYPES.length } as const;
const ACCOUNT_RULES = { nonEmpty: true, maxLength: 200, storable: true } as const;
const DESCRIPTION_RULES = { maxLength: 500, storable: true } as const;

export class CreateWebhookEndpointDto {
  @HttpUrlField({
    description:
      'Where events are POSTed: an http(s) URL on a public address (a private one only if SSRF_ALLOW_HOSTS allows it).',
    example: 'https://hooks.example.com/gateway',
  })
  url: string;

  @EnumListField(WEBHOOK_EVENT_TYPES, { description: 'The events to receive.', ...EVENT_RULES })
  events: WebhookEventType[];

  @StringField({
    description: "Only this account's events; absent: every account's.",
    optional: true,
    ...ACCOUNT_RULES,
  })
  accountId?: string;

  @StringField({ description: "The operator's note.", optional: true, ...DESCRIPTION_RULES })
  description?: string;
}

export class UpdateWebhookEndpointDto {
  @HttpUrlField({ description: 'A new URL, checked as at registration.', optional: true })
  url?: string;

  @EnumListField(WEBHOOK_EVENT_TYPES, {
    description: 'The events to receive.',
    optional: true,
    ...EVENT_RULES,
  })
  events?: WebhookEventType[];

  @StringField({
    description: "Only this account's events; null: every account's.",
    optional: true,
    nullable: true,
    ...ACCOUNT_RULES,
  })
  accountId?: string | null;

  @StringField({
    description: "The operator's note; null removes it.",
    optional: true,
    nullable: true,
    ...DESCRIPTION_RULES,
  })
  description?: string | null;

  @EnumField(WEBHOOK_ENDPOINT_STATUSES, {
    description: 'disabled: nothing is sent; enabled again, its pending deliveries resume.',
    optional: true,
  })
  status?: WebhookEndpointStatus;
}
