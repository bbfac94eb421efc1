import { Type } from 'class-transformer';
import { EnumField, IntegerField, StringField } from '../validation/scalar-field.decorator';
import {
  DEFAULT_OVERVIEW_TOP,
  MAX_OVERVIEW_TOP,
  OVERVIEW_BUCKETS,
  OVERVIEW_WINDOW_PATTERN,
  type OverviewBucket,
} from './usage-values.constants';

/** Query of `GET /admin/overview`. */
export class OverviewQueryDto {
  @StringField({
    description: 'How far back from now: a count and m, h or d (at most 48h by minute, 92d by hour).',
    optional: true,
    default: '24h',
    pattern: OVERVIEW_WINDOW_PATTERN,
    patternHint: 'a count and m, h or d, like 24h',
  })
  window: string = '24h';

  @EnumField(OVERVIEW_BUCKETS, { description: 'The width of one point.', optional: true, default: 'hour' })
  bucket: OverviewBucket = 'hour';

  @Type(() => Number)
  @IntegerField({
    description:
      'Models and channels drawn as their own series, by requests; the rest are one series, (other).',
    optional: true,
    default: DEFAULT_OVERVIEW_TOP,
    min: 1,
    max: MAX_OVERVIEW_TOP,
  })
  top: number = DEFAULT_OVERVIEW_TOP;
}
