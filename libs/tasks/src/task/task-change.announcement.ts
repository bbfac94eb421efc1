/**
 * The announcement of committed task changes on Redis pub/sub: after a write of a task's status or
 * progress commits, its writer publishes the task's id here, and each gateway with open progress
 * streams (GET /v1/tasks/{id}/events) reads that task's recorded events at once instead of at its next
 * fallback poll. A wake-up only: task_events stays the truth (order, resumption), so an announcement
 * that is lost makes an event late, never missing. Pure (no connection), for the gateway's light import.
 */

/** Ids per message at most: a burst of changes is cut into messages of this many. */
export const TASK_IDS_PER_ANNOUNCEMENT = 500;
/** Longer than any public task id: such an entry is not one of ours. */
const MAX_TASK_ID_LENGTH = 128;

/**
 * The channel under the configured Redis prefix. Plain PUBLISH reaches the subscribers of every node of
 * a Redis Cluster, so the channel needs no hash tag.
 */
export function taskChangesChannel(redisPrefix: string): string {
  return `${redisPrefix}:tasks:changes`;
}

/** The message of a batch of changed task ids: a JSON array of strings. */
export function toTaskChangesMessage(taskIds: readonly string[]): string {
  return JSON.stringify(taskIds);
}

/**
 * The task ids of a message; the well-formed entries only (anyone who can publish on the channel can
 * send anything: the worst a forged id does is one read of a task's events).
 */
export function fromTaskChangesMessage(message: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(
    (entry): entry is string =>
      typeof entry === 'string' && entry.length > 0 && entry.length <= MAX_TASK_ID_LENGTH,
  );
}
