import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import type { GatewayMetrics } from '@gateway/observability';
import { METRICS, PG_POOL } from '../infrastructure/tokens';

/** One indexed scan of the open tasks only ((status, deadline_at) index): finished rows are not read. */
const OPEN_TASKS_STATEMENT = {
  name: 'metrics-open-tasks',
  text: `select coalesce(kind, 'unknown') as kind, status, count(*)::int as count
           from tasks where status in ('queued', 'processing') group by 1, 2`,
};

/**
 * Counts the open tasks by kind and status when Prometheus scrapes. Like the queue depths, these are
 * the deployment's figures, so only the instance that serves /admin samples them (see HealthModule).
 */
@Injectable()
export class OpenTasksSampler {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(METRICS) private readonly metrics: GatewayMetrics,
  ) {}

  async sample(): Promise<void> {
    const { rows } = await this.pool.query<{ kind: string; status: string; count: number }>(
      OPEN_TASKS_STATEMENT,
    );
    // A kind with no open task any more must read 0, not its last count.
    this.metrics.tasksOpen.reset();
    for (const row of rows) this.metrics.tasksOpen.set({ kind: row.kind, status: row.status }, row.count);
  }
}
