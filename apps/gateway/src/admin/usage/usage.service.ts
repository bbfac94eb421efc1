import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { parseUsageGroupBy, UsageQueryDto, type UsageRow } from '@gateway/contracts';
import type { Pool } from 'pg';
import { PG_POOL } from '../../platform/infrastructure/tokens';
import { queryFigures } from '../figures/figure-query.util';
import { HOUR_MS, rollupCover } from '../figures/rollup-cover.util';
import { readRollupWatermarks } from '../figures/rollup-watermarks.reader';
import { parseAdminInput } from '../shared/admin-input.util';
import { copyCsv } from './usage-csv.stream';
import { usageSql, usageStatement } from './usage-query.sql';
import { toUsageRow, type UsageSqlRow } from './usage-row.mapper';
import { resolveUsageWindow } from './usage-window.util';

// perf-machinery: request-log-rollups (docs/performance-machinery.md)
/**
 * Usage summed from the request logs over a window (whole hours from the hourly rollup, the rest raw), grouped by any of day or hour, account, key, model
 * and channel: as JSON rows, or the same rows as a CSV stream.
 */
@Injectable()
export class UsageService {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async summarise(query: unknown): Promise<UsageRow[] | Readable> {
    const input = parseAdminInput(UsageQueryDto, query);
    const groupings = parseUsageGroupBy(input.groupBy);
    const window = resolveUsageWindow(input, new Date());
    const marks = await readRollupWatermarks(this.pool);
    const cover = rollupCover(window, HOUR_MS, marks.hour, marks.hourFloor);
    if (input.format === 'csv') {
      return copyCsv(this.pool, (quote) => usageSql(groupings, window, cover, quote));
    }
    const rows = await queryFigures<UsageSqlRow>(this.pool, usageStatement(groupings, window, cover));
    return rows.map((row) => toUsageRow(row, groupings));
  }
}
