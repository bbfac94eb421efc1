/** The event row's fields a body is made of. */
export interface EventHead {
  id: string;
  type: string;
  createdAt: Date;
}

/**
 * An event's body: `{ id: "evt_…", object: "event", type, created_at: <unix s>, data }`, `data` being
 * the task (or asset) as its own GET route renders it. Serialised once and kept: the signature covers
 * these exact bytes.
 */
export function webhookEventBody(event: EventHead, data: Record<string, unknown>): string {
  return JSON.stringify({
    id: event.id,
    object: 'event',
    type: event.type,
    created_at: Math.floor(event.createdAt.getTime() / 1000),
    data,
  });
}
