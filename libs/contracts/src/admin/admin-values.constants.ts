/** Value sets and defaults of the admin API. */

export const CHANNEL_STATUSES = ['enabled', 'disabled'] as const;
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number];

export const KEY_STATUSES = ['active', 'disabled'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

export const USAGE_GROUPINGS = ['key', 'model', 'channel', 'day'] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

export const DEFAULT_CHANNEL_WEIGHT = 1;
export const DEFAULT_LOGS_LIMIT = 50;
export const MAX_LOGS_LIMIT = 500;

/** Bounds of a Postgres INTEGER column. */
export const INT32_BOUNDS = { min: -2147483648, max: 2147483647 } as const;

/** Display names, model names and identifiers stay short. */
export const NAME_RULES = { nonEmpty: true, maxLength: 200 } as const;
