import { EnumField, IsoDateField } from '../validation/scalar-field.decorator';
import { USAGE_GROUPINGS, UsageGrouping } from './admin-values.constants';

/** Query of `GET /admin/usage`. */
export class UsageQueryDto {
  @EnumField(USAGE_GROUPINGS, { description: 'What one row sums over.' })
  groupBy: UsageGrouping;

  @IsoDateField({ description: 'Not before this time (ISO 8601).', optional: true })
  from?: string;

  @IsoDateField({ description: 'Before this time (ISO 8601).', optional: true })
  to?: string;
}
