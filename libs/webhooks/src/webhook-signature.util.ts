import { Webhook } from 'standardwebhooks';

/** The three headers of a Standard Webhooks message. */
export interface WebhookSignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Signs `body` as the Standard Webhooks specification says, with the `standardwebhooks` package (the
 * specification's own reference implementation): `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`
 * under each secret's key bytes (its base64 part after `whsec_`). Several secrets (a rotation's grace
 * period) give several signatures, space-separated; a receiver accepts the message if one verifies.
 */
export function signWebhook(
  messageId: string,
  sentAt: Date,
  body: string,
  secrets: readonly string[],
): WebhookSignatureHeaders {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, sentAt, body)).join(' '),
  };
}
