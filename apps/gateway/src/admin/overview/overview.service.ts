import { Inject, Injectable } from '@nestjs/common';
import { OverviewQueryDto, type OverviewView } from '@gateway/contracts';
import type { Pool } from 'pg';
import { PG_POOL } from '../../platform/infrastructure/tokens';
import { queryFigures } from '../figures/figure-query.util';
import { MINUTE_MS, rollupCover } from '../figures/rollup-cover.util';
import { readRollupWatermarks } from '../figures/rollup-watermarks.reader';
import { parseAdminInput } from '../shared/admin-input.util';
import { overviewStatement, type OverviewSqlRow } from './overview-query.sql';
import { resolveOverviewWindow } from './overview-window.util';
import { toOverviewView } from './overview.mapper';

// perf-machinery: request-log-rollups (docs/performance-machinery.md)
/**
 * Requests, errors, spend and latency percentiles per time bucket: overall, per model, per channel.
 * Whole minutes come from the minute rollup, the rest of the window from the raw rows.
 */
@Injectable()
export class OverviewService {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async overview(query: unknown): Promise<OverviewView> {
    const input = parseAdminInput(OverviewQueryDto, query);
    const window = resolveOverviewWindow(input.window, input.bucket, new Date());
    const cover = rollupCover(window, MINUTE_MS, (await readRollupWatermarks(this.pool)).minute);
    const rows = await queryFigures<OverviewSqlRow>(
      this.pool,
      overviewStatement(input.bucket, window, cover, input.top),
    );
    return toOverviewView(rows, window, input.bucket);
  }
}
