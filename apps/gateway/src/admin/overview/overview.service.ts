import { Inject, Injectable } from '@nestjs/common';
import { OverviewQueryDto, type OverviewView } from '@gateway/contracts';
import type { Pool } from 'pg';
import { PG_POOL } from '../../infrastructure/tokens';
import { parseAdminInput } from '../shared/admin-input.util';
import { overviewStatement, type OverviewSqlRow } from './overview-query.sql';
import { resolveOverviewWindow } from './overview-window.util';
import { toOverviewView } from './overview.mapper';

/** Requests, errors, spend and latency percentiles per time bucket: overall, per model, per channel. */
@Injectable()
export class OverviewService {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async overview(query: unknown): Promise<OverviewView> {
    const input = parseAdminInput(OverviewQueryDto, query);
    const window = resolveOverviewWindow(input.window, input.bucket, new Date());
    const { rows } = await this.pool.query<OverviewSqlRow>(
      overviewStatement(input.bucket, window, input.top),
    );
    return toOverviewView(rows, window, input.bucket);
  }
}
