import type { RedisConnection } from '@gateway/redis';
import {
  TASK_IDS_PER_ANNOUNCEMENT,
  taskChangesChannel,
  toTaskChangesMessage,
} from './task-change.announcement';

/** Told by TaskStore of each committed change of a task's status or progress. */
export interface TaskChangeAnnouncer {
  /** Fire and forget: never throws, never delays the write that committed. */
  announce(taskId: string): void;
}

/** For a TaskStore whose process has no one to tell (tests, tools). */
export const NO_TASK_CHANGE_ANNOUNCEMENTS: TaskChangeAnnouncer = { announce: () => undefined };

/** Ids kept while Redis is away, at most: past this, changes go unannounced (the fallback poll reads them). */
const MAX_PENDING_TASK_IDS = 10_000;
/** A failing publish is logged once per this long, not at every batch. */
const FAILURE_LOG_INTERVAL_MS = 30_000;

export interface TaskChangePublisherLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * Publishes committed task changes on the task changes channel (task-change.announcement.ts): the ids
 * announced within one turn of the event loop (a batch of transitions commits together) go in one
 * message, at the next turn. While the connection is not ready the ids wait, deduplicated and capped,
 * and go out when it is: a publish never queues behind an outage in the client, and never fails the
 * write. What is lost (a process killed before its publish, the cap reached) the gateways' fallback
 * poll delivers, later.
 */
export class RedisTaskChangePublisher implements TaskChangeAnnouncer {
  private readonly pending = new Set<string>();
  private readonly channel: string;
  private flushScheduled = false;
  private awaitingReady = false;
  private lastFailureLoggedAt = 0;

  constructor(
    /** Asked at the first announcement: a process that changes no task opens no connection. */
    private readonly redis: () => RedisConnection,
    redisPrefix: string,
    private readonly logger: TaskChangePublisherLogger,
  ) {
    this.channel = taskChangesChannel(redisPrefix);
  }

  announce(taskId: string): void {
    if (this.pending.size >= MAX_PENDING_TASK_IDS) return;
    this.pending.add(taskId);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    if (this.pending.size === 0) return;
    let redis: RedisConnection;
    try {
      redis = this.redis();
    } catch (error) {
      this.pending.clear();
      this.warnRarely(error);
      return;
    }
    if (redis.status !== 'ready') {
      if (!this.awaitingReady) {
        this.awaitingReady = true;
        redis.once('ready', () => {
          this.awaitingReady = false;
          this.flush();
        });
      }
      return;
    }
    const taskIds = [...this.pending];
    this.pending.clear();
    for (let start = 0; start < taskIds.length; start += TASK_IDS_PER_ANNOUNCEMENT) {
      const message = toTaskChangesMessage(taskIds.slice(start, start + TASK_IDS_PER_ANNOUNCEMENT));
      void redis.publish(this.channel, message).catch((error: unknown) => this.warnRarely(error));
    }
  }

  private warnRarely(error: unknown): void {
    if (Date.now() - this.lastFailureLoggedAt < FAILURE_LOG_INTERVAL_MS) return;
    this.lastFailureLoggedAt = Date.now();
    this.logger.warn(
      { error: String(error) },
      'announcing task changes failed; open streams get them at their fallback poll',
    );
  }
}
