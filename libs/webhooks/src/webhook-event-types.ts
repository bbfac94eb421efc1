/** Every event an endpoint may subscribe to (README, Webhooks). */
export const WEBHOOK_EVENT_TYPES = [
  'video.completed',
  'video.failed',
  'video.cancelled',
  'music.completed',
  'music.failed',
  'image.completed',
  'image.failed',
  'asset.active',
  'asset.failed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** What a terminal status of a task of each kind fires. */
const TASK_EVENTS: ReadonlyMap<string, ReadonlyMap<string, WebhookEventType>> = new Map([
  [
    'video',
    new Map<string, WebhookEventType>([
      ['completed', 'video.completed'],
      ['failed', 'video.failed'],
      ['cancelled', 'video.cancelled'],
    ]),
  ],
  // Music and image tasks have no cancelled event: their own GET routes show a cancelled task as a
  // failed one (FAILURE with its reason; the /bt query's error), and the event says what they say.
  [
    'music',
    new Map<string, WebhookEventType>([
      ['completed', 'music.completed'],
      ['failed', 'music.failed'],
      ['cancelled', 'music.failed'],
    ]),
  ],
  [
    'image',
    new Map<string, WebhookEventType>([
      ['completed', 'image.completed'],
      ['failed', 'image.failed'],
      ['cancelled', 'image.failed'],
    ]),
  ],
]);

/**
 * The event a task of `kind` fires on reaching `status`; undefined for an open status or a kind
 * without events. An image task fires image.* whichever route made it (`/bt`, or an asynchronous
 * image job): the kind decides, not the route.
 */
export function taskEventTypeOf(kind: string, status: string): WebhookEventType | undefined {
  return TASK_EVENTS.get(kind)?.get(status);
}

/** The event of an asset leaving Processing. */
export function assetEventTypeOf(status: 'Active' | 'Failed'): WebhookEventType {
  return status === 'Active' ? 'asset.active' : 'asset.failed';
}
