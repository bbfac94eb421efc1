import type { EnvironmentReader } from './environment-reader';
import type { TaskEventStreams } from './gateway-config';

/**
 * The progress streams of `GET /v1/tasks/{id}/events`: TASK_EVENTS_HEARTBEAT_MS (the comment line that
 * keeps an idle stream from being cut by a proxy), TASK_EVENTS_FALLBACK_POLL_MS (how often an instance with
 * open streams reads the new events of every task they follow even without an announcement on Redis: one
 * query for all of them, which delivers what a lost announcement left behind), TASK_EVENTS_MAX_STREAMS_PER_ACCOUNT and
 * TASK_EVENTS_MAX_STREAMS (open streams per account and per instance, each holding a socket and a
 * timer), TASK_EVENTS_RETENTION_HOURS (how long the recorded events a stream may resume from are kept).
 */
export function parseTaskEventStreams(reader: EnvironmentReader): TaskEventStreams {
  return {
    heartbeatMs: reader.integer('TASK_EVENTS_HEARTBEAT_MS', 15_000, { min: 10, max: 300_000 }),
    fallbackPollMs: reader.integer('TASK_EVENTS_FALLBACK_POLL_MS', 5_000, { min: 10, max: 600_000 }),
    maxStreamsPerAccount: reader.integer('TASK_EVENTS_MAX_STREAMS_PER_ACCOUNT', 100, { min: 1 }),
    maxStreams: reader.integer('TASK_EVENTS_MAX_STREAMS', 20_000, { min: 1 }),
    retentionHours: reader.integer('TASK_EVENTS_RETENTION_HOURS', 24, { min: 1, max: 8_760 }),
  };
}
