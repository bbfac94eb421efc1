import { Field } from '../validation/field.decorator';
import { EnumField, IsoDateField } from '../validation/scalar-field.decorator';
import { USAGE_GROUPINGS } from './admin-values.constants';
import { checkUsageGroupBy } from './usage-group-by.check';
import { USAGE_FORMATS, type UsageFormat } from './usage-values.constants';

/** Query of `GET /admin/usage`. */
export class UsageQueryDto {
  @Field(
    {
      description: `What one row sums over: a comma list of ${USAGE_GROUPINGS.join(', ')} (at most one of day, hour).`,
      example: 'day,model',
    },
    { type: String, pattern: `^(${USAGE_GROUPINGS.join('|')})(,(${USAGE_GROUPINGS.join('|')}))*$` },
    'usageGroupBy',
    checkUsageGroupBy,
  )
  groupBy: string;

  @IsoDateField({
    description: 'Not before this time (ISO 8601); by default 24 hours before `to`.',
    optional: true,
  })
  from?: string;

  @IsoDateField({ description: 'Before this time (ISO 8601); by default now.', optional: true })
  to?: string;

  @EnumField(USAGE_FORMATS, {
    description: 'json: an array of rows; csv: the same rows as CSV with a header line, streamed.',
    optional: true,
    default: 'json',
  })
  format: UsageFormat = 'json';
}
