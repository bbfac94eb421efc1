import { ipAllowListOf } from './ip-allow-list.util';
import {
  BUDGET_PERIODS,
  LIMIT_NAMES,
  type BudgetPeriod,
  type GovernanceBudget,
  type GovernanceLimits,
  type KeyGovernance,
  type ScopeGovernance,
} from './key-governance';

/** The governance columns of a key row and of its account row, as the key lookup reads them. */
export interface GovernanceColumns {
  keyLimits?: unknown;
  keyBudgetMicros?: string | null;
  keyBudgetPeriod?: string | null;
  allowedIps?: string[] | null;
  accountLimits?: unknown;
  accountBudgetMicros?: string | null;
  accountBudgetPeriod?: string | null;
}

/** The governance of a key, or null when nothing governs it (the fast path: no Redis, no Postgres). */
export function keyGovernanceOf(columns: GovernanceColumns): KeyGovernance | null {
  const key = scopeOf(columns.keyLimits, columns.keyBudgetMicros, columns.keyBudgetPeriod);
  const account = scopeOf(columns.accountLimits, columns.accountBudgetMicros, columns.accountBudgetPeriod);
  const allowedIps = ipAllowListOf(columns.allowedIps ?? []);
  if (isUngoverned(key) && isUngoverned(account) && allowedIps === null) return null;
  return { key, account, allowedIps };
}

/** Limits as stored (a JSON object of positive integers); anything else counts as no limit. */
export function limitsOf(stored: unknown): GovernanceLimits | null {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return null;
  const limits: Record<string, number> = {};
  for (const name of LIMIT_NAMES) {
    const value = (stored as Record<string, unknown>)[name];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) limits[name] = value;
  }
  return Object.keys(limits).length > 0 ? limits : null;
}

export function budgetOf(
  micros: string | null | undefined,
  period: string | null | undefined,
): GovernanceBudget | null {
  if (micros === null || micros === undefined || !isBudgetPeriod(period)) return null;
  return { amountMicros: BigInt(micros), period };
}

function scopeOf(
  limits: unknown,
  micros: string | null | undefined,
  period: string | null | undefined,
): ScopeGovernance {
  return { limits: limitsOf(limits), budget: budgetOf(micros, period) };
}

function isUngoverned(scope: ScopeGovernance): boolean {
  return scope.limits === null && scope.budget === null;
}

function isBudgetPeriod(period: string | null | undefined): period is BudgetPeriod {
  return (BUDGET_PERIODS as readonly (string | null | undefined)[]).includes(period);
}
