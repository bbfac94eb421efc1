import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { GatewayConfig } from '@gateway/config';
import { createPgPool } from '@gateway/db/pg-pool';
import { logConnectionErrors } from '@gateway/observability';
import { GatewayError } from '@gateway/errors';
import type { RedisConnection } from '@gateway/redis';
import { CONFIG, LOGGER, PG_POOL, REDIS_SUBSCRIBER } from '../../platform/infrastructure/tokens';
import { TaskChangeListener } from './task-change.listener';
import type { TaskEvent } from './task-event';
import { TaskEventFeed } from './task-event.feed';
import { TaskEventHistory } from './task-event.history';
import type { TaskEventStream } from './task-event.stream';

const PRUNE_INTERVAL_MS = 10 * 60_000;
/** How the feed's session shows in pg_stat_activity. */
export const FEED_APPLICATION_NAME = 'gateway-task-events';

/**
 * The fan-out of task changes to this instance's open streams: one reader (TaskEventFeed, on a connection
 * of its own so that it never waits behind the serving path), woken by the writers' announcements on
 * Redis (TaskChangeListener, subscribed while any stream is open) and polling every followed task once
 * per TASK_EVENTS_FALLBACK_POLL_MS for what an announcement missed; each change handed to the streams of
 * its task only (a map lookup). Also the caps on open streams, their closing when the gateway shuts down,
 * and the pruning of old recorded events.
 */
@Injectable()
export class TaskEventHub implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  readonly history: TaskEventHistory;
  private readonly streamsByTask = new Map<string, Set<TaskEventStream>>();
  private readonly openByAccount = new Map<string, number>();
  private open = 0;
  private readonly feedPool: Pool;
  private readonly feed: TaskEventFeed;
  private readonly changes: TaskChangeListener;
  private pruneTimer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(PG_POOL) pool: Pool,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly adapterHost: HttpAdapterHost,
    @Inject(REDIS_SUBSCRIBER) subscriber: RedisConnection,
  ) {
    this.history = new TaskEventHistory(pool);
    this.feedPool = logConnectionErrors(
      createPgPool(withApplicationName(config.databaseUrl, FEED_APPLICATION_NAME), 1),
      logger,
      'postgres',
      'task-events',
    );
    this.feed = new TaskEventFeed(
      this.feedPool,
      config.taskEvents.fallbackPollMs,
      (event) => this.dispatch(event),
      logger,
    );
    this.changes = new TaskChangeListener(
      subscriber,
      config.redisPrefix,
      { changed: (taskIds) => this.feed.wake(taskIds), missed: () => void this.feed.poll() },
      logger,
    );
  }

  /** Open streams on this instance (the bench and tests read it). */
  get openStreams(): number {
    return this.open;
  }

  /**
   * Reserves a stream of the account against the caps, before anything is written: 429 past either.
   * The caller releases it with `release` if it never attaches a stream.
   */
  reserve(accountId: string): void {
    const { maxStreams, maxStreamsPerAccount } = this.config.taskEvents;
    const ofAccount = this.openByAccount.get(accountId) ?? 0;
    if (this.open >= maxStreams || ofAccount >= maxStreamsPerAccount) {
      throw new GatewayError(
        'rate_limited',
        `Too many open task event streams (at most ${maxStreamsPerAccount} per account); close one or poll GET /v1/tasks/{id}.`,
        { retryAfterMs: 5_000 },
      );
    }
    this.openByAccount.set(accountId, ofAccount + 1);
    this.open += 1;
  }

  release(accountId: string): void {
    const ofAccount = (this.openByAccount.get(accountId) ?? 1) - 1;
    if (ofAccount <= 0) this.openByAccount.delete(accountId);
    else this.openByAccount.set(accountId, ofAccount);
    this.open -= 1;
  }

  /**
   * Feeds `stream` the changes of its task recorded after `afterSeq` (what its opening read last) from
   * the next read on; its reserved slot is released when it ends.
   */
  attach(stream: TaskEventStream, afterSeq: number): void {
    let streams = this.streamsByTask.get(stream.taskId);
    if (!streams) {
      streams = new Set();
      this.streamsByTask.set(stream.taskId, streams);
    }
    streams.add(stream);
    this.feed.follow(stream.taskId, afterSeq);
    this.changes.start();
  }

  /** Called by a stream when it ends. */
  detach(stream: TaskEventStream): void {
    const streams = this.streamsByTask.get(stream.taskId);
    if (!streams?.delete(stream)) return;
    if (streams.size === 0) {
      this.streamsByTask.delete(stream.taskId);
      this.feed.unfollow(stream.taskId);
      if (this.streamsByTask.size === 0) this.changes.stop();
    }
    this.release(stream.accountId);
  }

  /** Ends every open stream: its client reconnects (to another instance) with its Last-Event-ID. */
  closeAll(): void {
    for (const streams of [...this.streamsByTask.values()]) for (const stream of [...streams]) stream.end();
  }

  onModuleInit(): void {
    // Before Fastify waits for open requests to finish: a stream would hold the shutdown to its deadline.
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.addHook('preClose', (done) => {
      this.closeAll();
      done();
    });
  }

  onApplicationBootstrap(): void {
    this.pruneTimer = setInterval(() => void this.prune(), PRUNE_INTERVAL_MS).unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.pruneTimer);
    this.closeAll();
    this.changes.stop();
    this.feed.stop();
    await this.feedPool.end();
  }

  private dispatch(event: TaskEvent): void {
    const streams = this.streamsByTask.get(event.taskId);
    if (streams) for (const stream of streams) stream.deliver(event);
  }

  private async prune(): Promise<void> {
    try {
      await this.history.prune(this.config.taskEvents.retentionHours);
    } catch (error) {
      this.logger.warn({ err: error }, 'pruning recorded task events failed; the next run tries again');
    }
  }
}

function withApplicationName(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('application_name', name);
  return url.toString();
}
