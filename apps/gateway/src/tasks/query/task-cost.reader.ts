import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import type { Task } from '@gateway/db';
import { PG_POOL } from '../../platform/infrastructure/tokens';

/**
 * What the ledger captured for a task: the capture rows of its hold (settlement writes one per hold,
 * keyed `capture:<request id>`). Only a finished task's cost is final: an open one's is null, a failed
 * or cancelled one without a capture cost nothing ('0'). A completed task whose settlement has not
 * landed yet is null until it does.
 */
@Injectable()
export class TaskCostReader {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async capturedMicros(task: Pick<Task, 'status' | 'holdRequestId'>): Promise<string | null> {
    if (task.status === 'queued' || task.status === 'processing') return null;
    const captured = task.holdRequestId === null ? null : await this.sumOfCaptures(task.holdRequestId);
    if (captured !== null) return captured;
    return task.status === 'completed' ? null : '0';
  }

  private async sumOfCaptures(requestId: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ total: string | null }>(
      `SELECT SUM(amount)::text AS total FROM ledger_entries WHERE request_id = $1 AND kind = 'capture'`,
      [requestId],
    );
    return rows[0]?.total ?? null;
  }
}
