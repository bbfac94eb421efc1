/** Value sets and bounds of `GET /admin/usage` and `GET /admin/overview`. */

export const USAGE_FORMATS = ['json', 'csv'] as const;
export type UsageFormat = (typeof USAGE_FORMATS)[number];

/** The time-bucket groupings of usage: a row cannot be both a day and an hour. */
export const USAGE_TIME_GROUPINGS = ['day', 'hour'] as const;

/** The window of a usage query when it names neither end, and the longest one it may name. */
export const DEFAULT_USAGE_WINDOW_HOURS = 24;
export const MAX_USAGE_WINDOW_DAYS = 366;

export const OVERVIEW_BUCKETS = ['minute', 'hour'] as const;
export type OverviewBucket = (typeof OVERVIEW_BUCKETS)[number];

/**
 * The longest overview window per bucket, in hours: a chart of more than a few thousand points per
 * series is unreadable, and the statement's cost grows with the rows of the window.
 */
export const MAX_OVERVIEW_WINDOW_HOURS: Record<OverviewBucket, number> = { minute: 48, hour: 24 * 92 };

/** A window written as a count and a unit: `90m`, `24h`, `7d`. */
export const OVERVIEW_WINDOW_PATTERN = /^[1-9][0-9]{0,4}[mhd]$/;

/** Models and channels drawn as their own series; the rest are summed as one. */
export const DEFAULT_OVERVIEW_TOP = 5;
export const MAX_OVERVIEW_TOP = 20;

/** The series of the models or channels beyond the top ones. */
export const OTHER_SERIES = '(other)';
