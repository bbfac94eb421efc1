import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { GovernanceBudgetView, GovernanceFiguresView, GovernanceLimitsView } from './governance-view.dto';
import { KEY_STATUSES, KeyStatus } from './admin-values.constants';

/** An inference key as the admin API shows it: its visible prefix, never the key or its hash. */
export class KeyView {
  @ApiProperty({ description: 'Key id.' })
  id: string;

  @ApiProperty({ description: 'Account the key spends from.' })
  accountId: string;

  @ApiProperty({ description: 'Display name.' })
  name: string;

  @ApiProperty({ description: 'Visible start of the key, for recognising it.' })
  prefix: string;

  @ApiProperty({ description: 'A disabled key is refused.', enum: [...KEY_STATUSES] })
  status: KeyStatus;

  @ApiProperty({
    description: 'Expiry (ISO 8601), or null.',
    format: 'date-time',
    nullable: true,
    type: String,
  })
  expiresAt: string | null;

  @ApiProperty({
    description: 'Models the key may use; empty means every model.',
    type: String,
    isArray: true,
  })
  allowedModels: string[];

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

  @ApiProperty({
    description: 'CIDR ranges the key may be used from; empty means anywhere.',
    type: String,
    isArray: true,
  })
  allowedIps: string[];

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

/** The answer to key creation: the only time the whole key is shown. */
export class CreatedKeyView extends KeyView {
  @ApiProperty({ description: 'The whole key; shown once, store it now.' })
  key: string;
}
