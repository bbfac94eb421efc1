import type { Logger } from 'pino';
import type { RedisConnection } from '@gateway/redis';
import { fromTaskChangesMessage, taskChangesChannel } from '@gateway/tasks/queues';

/** What the listener tells: announced task ids, or that announcements may have been missed. */
export interface TaskChangeListenerTargets {
  changed(taskIds: string[]): void;
  /**
   * Announcements may have been missed (the subscriber reconnected, or has just subscribed): read
   * everything followed.
   */
  missed(): void;
}

/**
 * Listens, on the instance's one Redis subscriber connection (shared with the key and channel caches),
 * to the task changes the writers announce after their commit (libs/tasks task-change.announcement.ts),
 * while the instance has open streams: an instance without one takes no message. A wake-up only (the
 * recorded events are the truth): a lost message, or Redis away, leaves the change to the feed's
 * fallback poll.
 */
export class TaskChangeListener {
  private readonly channel: string;
  private listening = false;

  constructor(
    private readonly subscriber: RedisConnection,
    redisPrefix: string,
    private readonly targets: TaskChangeListenerTargets,
    private readonly logger: Logger,
  ) {
    this.channel = taskChangesChannel(redisPrefix);
  }

  start(): void {
    if (this.listening) return;
    this.listening = true;
    this.subscriber.on('message', this.onMessage);
    this.subscriber.on('ready', this.onReady);
    // Through an outage the client sends it on reconnecting (and resubscribes by itself after that).
    // Once subscribed, one read of everything: a change announced before the subscription took effect
    // (after the first stream's own catch-up read) would otherwise wait for the fallback poll.
    void this.subscriber.subscribe(this.channel).then(
      () => this.targets.missed(),
      (error: unknown) => this.warn(error, 'subscribing'),
    );
  }

  stop(): void {
    if (!this.listening) return;
    this.listening = false;
    this.subscriber.off('message', this.onMessage);
    this.subscriber.off('ready', this.onReady);
    // Away: the subscription the client restores then is harmless, its messages go unheard.
    if (this.subscriber.status === 'ready') {
      void this.subscriber
        .unsubscribe(this.channel)
        .catch((error: unknown) => this.warn(error, 'unsubscribing'));
    }
  }

  private readonly onMessage = (channel: string, message: string): void => {
    if (channel !== this.channel) return;
    const taskIds = fromTaskChangesMessage(message);
    if (taskIds.length > 0) this.targets.changed(taskIds);
  };

  private readonly onReady = (): void => this.targets.missed();

  private warn(error: unknown, doing: string): void {
    this.logger.warn(
      { err: error },
      `${doing} to task change announcements failed; the fallback poll feeds the streams`,
    );
  }
}
