import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BUDGET_PERIODS, type BudgetPeriod } from '@gateway/auth';

const MICROS = { type: String, pattern: '^[0-9]+$', example: '1500000' };

/** Configured limits; a member that is not set is absent. */
export class GovernanceLimitsView {
  @ApiPropertyOptional({ type: 'integer' })
  requestsPerMinute?: number;

  @ApiPropertyOptional({ type: 'integer' })
  tokensPerMinute?: number;

  @ApiPropertyOptional({ type: 'integer' })
  concurrentRequests?: number;

  @ApiPropertyOptional({ type: 'integer' })
  outstandingTasks?: number;
}

export class GovernanceBudgetView {
  @ApiProperty({ description: 'The most spent per period, in micros.', ...MICROS })
  amountMicros: string;

  @ApiProperty({ enum: [...BUDGET_PERIODS] })
  period: BudgetPeriod;
}

/** Where a key (account) stands now against its limits and budget. */
export class GovernanceFiguresView {
  @ApiProperty({
    description:
      'Requests counted in the current UTC minute; null when no request limit applies or Redis is unavailable.',
    type: 'integer',
    nullable: true,
  })
  requestsThisMinute: number | null;

  @ApiProperty({
    description:
      'Tokens counted in the current UTC minute; null when no token limit applies or Redis is unavailable.',
    type: 'integer',
    nullable: true,
  })
  tokensThisMinute: number | null;

  @ApiProperty({
    description:
      'Requests in flight on every instance; null when no concurrency limit applies or Redis is unavailable.',
    type: 'integer',
    nullable: true,
  })
  inFlight: number | null;

  @ApiProperty({ description: 'Tasks admitted and not yet settled.', type: 'integer' })
  outstandingTasks: number;

  @ApiProperty({
    description:
      'Spent in the current budget period (captures and open reservations); null without a budget.',
    ...MICROS,
    nullable: true,
  })
  budgetSpentMicros: string | null;

  @ApiProperty({
    description: 'When the current budget period ends (ISO 8601); null without a budget or for a total one.',
    format: 'date-time',
    type: String,
    nullable: true,
  })
  budgetResetsAt: string | null;
}
