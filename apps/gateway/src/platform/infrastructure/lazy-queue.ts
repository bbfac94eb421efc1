import type { Queue } from 'bullmq';
import type { RedisConnection } from '@gateway/redis';
import { logConnectionErrors, type GatewayLogger } from '@gateway/observability';

// perf-machinery: lazy-queue (docs/performance-machinery.md)
/**
 * A BullMQ queue opened, and BullMQ loaded, on first use. A gateway only produces jobs when a
 * settlement fails inline, and only the instance that serves /admin reads queue depths: a public
 * replica then never loads BullMQ (about 4 MiB of heap: its Lua scripts and its PostgreSQL backend).
 */
export class LazyQueue {
  private opened: Promise<Queue> | undefined;

  constructor(
    readonly name: string,
    private readonly connection: RedisConnection,
    private readonly prefix: string,
    private readonly logger: GatewayLogger,
  ) {}

  queue(): Promise<Queue> {
    // The queue repeats its connection's errors; unheard, BullMQ prints them raw on standard error.
    this.opened ??= import('bullmq').then(({ Queue }) =>
      logConnectionErrors(
        new Queue(this.name, { connection: this.connection, prefix: this.prefix }),
        this.logger,
        'redis',
        `queue ${this.name}`,
      ),
    );
    return this.opened;
  }

  async close(): Promise<void> {
    if (this.opened) await (await this.opened).close();
  }
}
