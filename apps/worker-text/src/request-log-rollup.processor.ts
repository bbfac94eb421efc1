import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { GatewayConfig } from '@gateway/config';
import { errorMessageOf, type GatewayLogger } from '@gateway/observability';
import { PG_POOL, WORKER_CONFIG, WORKER_LOGGER } from '@gateway/tasks';
import type { Pool } from 'pg';

// perf-machinery: request-log-rollups (docs/performance-machinery.md)
/** How often the rollups of request_logs move on. */
export const ROLLUP_INTERVAL_MS = 60_000;
/**
 * How old a minute must be before it is rolled up: a log row is written with the time of its insert,
 * so by then every row of that minute has committed (settlements are single short statements).
 */
export const ROLLUP_SETTLE_LAG = '2 minutes';
/** The most one call rolls, so that catching up on a long history is a series of bounded statements. */
const ROLLUP_MAX_SPAN = '1 day';
/** Calls per tick while catching up: a month of history takes a few ticks, not one long one. */
const MAX_CALLS_PER_TICK = 8;
/** Sweep statements per tick (each deletes at most ROLLUP_SWEEP_BATCH rows per rollup): the rest waits. */
const MAX_SWEEPS_PER_TICK = 20;

/**
 * Every minute, sums the request logs of the minutes and hours that ended into request_log_minutes and
 * request_log_hours (roll_up_request_logs, migration request_log_rollups), which GET /admin/overview and
 * GET /admin/usage read instead of millions of raw rows. Every worker-text instance ticks; the function
 * takes an advisory lock, so one rolls and the others return at once. A failed tick is logged and the
 * next one retries: the watermark moves only with the rows it rolled, in one transaction. After
 * rolling, the tick deletes the rollup rows past their retention (sweep_request_log_rollups, migration
 * rollup_retention_and_hour_series) in bounded batches.
 */
@Injectable()
export class RequestLogRollupProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(WORKER_LOGGER) private readonly logger: GatewayLogger,
    @Inject(WORKER_CONFIG) private readonly config: Pick<GatewayConfig, 'rollupRetention'>,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), ROLLUP_INTERVAL_MS);
    this.timer.unref();
    void this.tick();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Rolls up what has ended, in bounded calls; true once caught up. */
  async rollUp(): Promise<boolean> {
    for (let call = 0; call < MAX_CALLS_PER_TICK; call += 1) {
      const { rows } = await this.pool.query<{ caught_up: boolean }>(
        'SELECT roll_up_request_logs($1::interval, $2::interval) AS caught_up',
        [ROLLUP_SETTLE_LAG, ROLLUP_MAX_SPAN],
      );
      if (rows[0]?.caught_up !== false) return true;
    }
    return false;
  }

  /**
   * Deletes the minute rows older than ROLLUP_MINUTE_RETENTION_DAYS (whole hours the series per hour
   * hold) and the hour rows older than ROLLUP_HOUR_RETENTION_DAYS, one bounded batch per statement,
   * until nothing is left to delete or the tick's share is spent. Returns the rows deleted.
   */
  async sweep(): Promise<number> {
    const { minuteDays, hourDays, sweepBatch } = this.config.rollupRetention;
    let deleted = 0;
    for (let call = 0; call < MAX_SWEEPS_PER_TICK; call += 1) {
      const { rows } = await this.pool.query<{ deleted: number }>(
        'SELECT sweep_request_log_rollups($1::interval, $2::interval, $3) AS deleted',
        [`${minuteDays} days`, `${hourDays} days`, sweepBatch],
      );
      const batch = rows[0]?.deleted ?? 0;
      deleted += batch;
      if (batch === 0) break;
    }
    return deleted;
  }

  private tick(): Promise<void> {
    // One tick at a time in this process: a slow catch-up is not run twice over.
    this.running ??= this.rollUp()
      .then(() => this.sweep())
      .then(
        () => undefined,
        (error: unknown) => this.logger.warn({ reason: errorMessageOf(error) }, 'request-log rollup failed'),
      )
      .finally(() => (this.running = undefined));
    return this.running;
  }
}
