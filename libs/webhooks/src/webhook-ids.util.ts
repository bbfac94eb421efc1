import { randomBytes } from 'node:crypto';

/** 128 random bits, URL-safe: ids that cannot be guessed. */
function randomPart(): string {
  return randomBytes(16).toString('base64url');
}

/** An event's id, in its body (`evt_…`). */
export function newWebhookEventId(): string {
  return `evt_${randomPart()}`;
}

/** An endpoint's id (`we_…`). */
export function newWebhookEndpointId(): string {
  return `we_${randomPart()}`;
}

const ENDPOINT_ID = /^we_[A-Za-z0-9_-]{22}$/;
/** Delivery ids are written by the outbox statement: `msg_` and 32 hex digits (a UUID's). */
const DELIVERY_ID = /^msg_[0-9a-f]{32}$/;

/** Whether `value` can be an endpoint's id: anything else is a 404 without a query. */
export function isWebhookEndpointId(value: string): boolean {
  return ENDPOINT_ID.test(value);
}

export function isWebhookDeliveryId(value: string): boolean {
  return DELIVERY_ID.test(value);
}
