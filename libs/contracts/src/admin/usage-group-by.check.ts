import { USAGE_GROUPINGS, type UsageGrouping } from './admin-values.constants';
import { USAGE_TIME_GROUPINGS } from './usage-values.constants';

/** The groupings of a `groupBy` value (`day,model`), in the order given. Only call on a checked value. */
export function parseUsageGroupBy(value: string): UsageGrouping[] {
  return value.split(',') as UsageGrouping[];
}

/**
 * `groupBy` is a comma list of distinct groupings, at most one of them a time bucket. Answers the
 * problem in words, or undefined.
 */
export function checkUsageGroupBy(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  const groupings = value.split(',');
  if (groupings.some((grouping) => !(USAGE_GROUPINGS as readonly string[]).includes(grouping))) {
    return `must be a comma list of ${USAGE_GROUPINGS.join(', ')}`;
  }
  if (new Set(groupings).size !== groupings.length) return 'must not name a grouping twice';
  const timeBuckets = groupings.filter((grouping) =>
    (USAGE_TIME_GROUPINGS as readonly string[]).includes(grouping),
  );
  if (timeBuckets.length > 1) return `must name at most one of ${USAGE_TIME_GROUPINGS.join(', ')}`;
  return undefined;
}
