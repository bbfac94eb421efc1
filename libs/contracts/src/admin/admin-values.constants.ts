import type { ValidateBodyOptions } from '../validation/validate-body.util';

/** Value sets and defaults of the admin API. */

export const CHANNEL_STATUSES = ['enabled', 'disabled'] as const;
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number];

export const KEY_STATUSES = ['active', 'disabled'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/** What `GET /admin/usage` can group by: any of them, at most one of the time buckets (day, hour). */
export const USAGE_GROUPINGS = ['day', 'hour', 'account', 'key', 'model', 'channel'] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

export const DEFAULT_CHANNEL_WEIGHT = 1;
export const DEFAULT_LOGS_LIMIT = 50;
export const MAX_LOGS_LIMIT = 500;

/** Bounds of a Postgres INTEGER column. */
export const INT32_BOUNDS = { min: -2147483648, max: 2147483647 } as const;

/** Display names, model names and identifiers stay short. */
export const NAME_RULES = { nonEmpty: true, maxLength: 200 } as const;

/**
 * How every admin body and query is validated. A misspelt field (`overdraftLimit` for
 * `overdraftLimitMicros`) must fail loudly in an operator API, not be ignored; and every string is
 * written to Postgres as sent, so NUL or an unpaired surrogate anywhere is the operator's 400, not a
 * refused statement.
 */
export const ADMIN_INPUT_RULES: ValidateBodyOptions = Object.freeze({
  refuseUnknownFields: true,
  refuseUnstorableText: true,
});
