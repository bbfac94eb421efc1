import { Inject, Injectable } from '@nestjs/common';
import { UsageQueryDto, type UsageRow } from '@gateway/contracts';
import type { PrismaClient } from '@gateway/db';
import { PRISMA } from '../../infrastructure/tokens';
import { parseAdminInput } from '../shared/admin-input.util';
import { usageStatement, type UsageSqlRow } from './usage-query.sql';
import { toUsageRow } from './usage-row.mapper';

/** Usage summed from the request logs by key, model, channel or UTC day. */
@Injectable()
export class UsageService {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  async summarise(query: unknown): Promise<UsageRow[]> {
    const input = parseAdminInput(UsageQueryDto, query);
    const rows = await this.prisma.$queryRaw<UsageSqlRow[]>(usageStatement(input));
    return rows.map(toUsageRow);
  }
}
