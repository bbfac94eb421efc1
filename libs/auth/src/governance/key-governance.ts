import type { IpAllowList } from './ip-allow-list.util';

/** The limits of a key or of an account (all its keys together); an absent member does not apply. */
export interface GovernanceLimits {
  readonly requestsPerMinute?: number;
  readonly tokensPerMinute?: number;
  readonly concurrentRequests?: number;
  readonly outstandingTasks?: number;
}

export const LIMIT_NAMES = [
  'requestsPerMinute',
  'tokensPerMinute',
  'concurrentRequests',
  'outstandingTasks',
] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

export const BUDGET_PERIODS = ['day', 'week', 'month', 'total'] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];

/** The most a key (account) may spend per UTC calendar period, counting captures and open holds. */
export interface GovernanceBudget {
  readonly amountMicros: bigint;
  readonly period: BudgetPeriod;
}

/** What governs one scope: a key on its own, or every key of an account together. */
export interface ScopeGovernance {
  readonly limits: GovernanceLimits | null;
  readonly budget: GovernanceBudget | null;
}

/**
 * Everything that governs requests made with a key, read with the key (one cached lookup): the key's
 * own limits and budget, its account's, and the key's IP allow-list. A key under none of them has
 * `governance: null` on its ResolvedKey, so that governing it costs nothing.
 */
export interface KeyGovernance {
  readonly key: ScopeGovernance;
  readonly account: ScopeGovernance;
  /** Null when the key may be used from anywhere. */
  readonly allowedIps: IpAllowList | null;
}
