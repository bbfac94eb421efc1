import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { GovernanceBudgetView, GovernanceFiguresView, GovernanceLimitsView } from './governance-view.dto';

const MICROS = { type: String, pattern: '^-?[0-9]+$', example: '1500000' };

/** An account with its money as decimal strings of micros (1 unit = 1,000,000 micros). */
export class AccountView {
  @ApiProperty({ description: 'Account id.' })
  id: string;

  @ApiProperty({ description: 'Display name.' })
  name: string;

  @ApiProperty({ description: 'Credited minus captured, in micros.', ...MICROS })
  balanceMicros: string;

  @ApiProperty({ description: 'Sum of open holds and of what open leases reserve, in micros.', ...MICROS })
  heldMicros: string;

  @ApiProperty({ description: 'Balance minus holds, in micros.', ...MICROS })
  availableMicros: string;

  @ApiProperty({ description: 'How far below zero the available amount may go, in micros.', ...MICROS })
  overdraftLimitMicros: string;

  @ApiProperty({
    description: 'Configured limits (docs/governance.md); null when none.',
    type: GovernanceLimitsView,
    nullable: true,
  })
  limits: GovernanceLimitsView | null;

  @ApiProperty({
    description: 'Configured budget; null when none.',
    type: GovernanceBudgetView,
    nullable: true,
  })
  budget: GovernanceBudgetView | null;

  @ApiPropertyOptional({
    description: 'Current figures against the limits and budget (single-item GET only).',
    type: GovernanceFiguresView,
  })
  current?: GovernanceFiguresView;

  @ApiProperty({ description: 'Creation time (ISO 8601).', format: 'date-time' })
  createdAt: string;

  @ApiProperty({ description: 'Last change (ISO 8601).', format: 'date-time' })
  updatedAt: string;
}
