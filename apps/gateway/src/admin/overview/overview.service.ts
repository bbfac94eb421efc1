import { Inject, Injectable } from '@nestjs/common';
import { OverviewQueryDto, type OverviewView } from '@gateway/contracts';
import type { Pool } from 'pg';
import { PG_POOL } from '../../platform/infrastructure/tokens';
import { queryFigures } from '../figures/figure-query.util';
import { overviewCover } from '../figures/overview-cover.util';
import { readRollupWatermarks } from '../figures/rollup-watermarks.reader';
import { parseAdminInput } from '../shared/admin-input.util';
import { overviewStatement, type OverviewSqlRow } from './overview-query.sql';
import { resolveOverviewWindow } from './overview-window.util';
import { toOverviewView } from './overview.mapper';

// perf-machinery: request-log-rollups (docs/performance-machinery.md)
/**
 * Requests, errors, spend and latency percentiles per time bucket: overall, per model, per channel.
 * Whole hours come from the series per hour, whole minutes from the minute rollup, the rest of the
 * window from the raw rows (overview-cover.util.ts). The top models and channels are ranked over the
 * window read by hours wherever it can, whatever the bucket: the same sums from fewer rows.
 */
@Injectable()
export class OverviewService {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async overview(query: unknown): Promise<OverviewView> {
    const input = parseAdminInput(OverviewQueryDto, query);
    const window = resolveOverviewWindow(input.window, input.bucket, new Date());
    const marks = await readRollupWatermarks(this.pool);
    const rows = await queryFigures<OverviewSqlRow>(
      this.pool,
      overviewStatement(
        input.bucket,
        overviewCover(window, input.bucket, marks),
        overviewCover(window, 'hour', marks),
        input.top,
      ),
    );
    return toOverviewView(rows, window, input.bucket);
  }
}
