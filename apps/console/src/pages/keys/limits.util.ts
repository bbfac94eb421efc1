// The limits and budget of a key or an account, between the form's text and the admin API's shape.
import { type Budget, type BudgetPeriod, type GovernanceFigures, type Limits } from '../../api/admin.types';
import { microsToUnits, unitsToMicros } from '../../format/money.util';
import { optionalInteger, type Problems } from '../../forms/validation.util';

export const LIMIT_FIELDS = [
  ['requestsPerMinute', 'Requests per minute'],
  ['tokensPerMinute', 'Tokens per minute'],
  ['concurrentRequests', 'Concurrent requests'],
  ['outstandingTasks', 'Outstanding tasks'],
] as const;

export type LimitsText = Record<(typeof LIMIT_FIELDS)[number][0], string> & {
  budgetUnits: string;
  budgetPeriod: BudgetPeriod;
};

export function limitsText(limits?: Limits | null, budget?: Budget | null): LimitsText {
  const text = (value: number | null | undefined) =>
    value === null || value === undefined ? '' : String(value);
  return {
    requestsPerMinute: text(limits?.requestsPerMinute),
    tokensPerMinute: text(limits?.tokensPerMinute),
    concurrentRequests: text(limits?.concurrentRequests),
    outstandingTasks: text(limits?.outstandingTasks),
    budgetUnits: budget ? microsToUnits(budget.amountMicros) : '',
    budgetPeriod: budget?.period ?? 'month',
  };
}

/**
 * The limits and budget as the API takes them. Empty fields are left out, and nothing is sent at all
 * when every field is empty: a gateway without the governance fields refuses unknown fields, so a
 * key without limits must not name them.
 */
export function parseLimits(text: LimitsText, problems: Problems): { limits?: Limits; budget?: Budget } {
  const limits: Limits = {};
  for (const [field, label] of LIMIT_FIELDS) {
    const parsed = optionalInteger(text[field], label, { min: 1 });
    if (parsed.problem) problems[field] = parsed.problem;
    else if (parsed.value !== undefined) limits[field] = parsed.value;
  }
  const result: { limits?: Limits; budget?: Budget } = {};
  if (Object.keys(limits).length > 0) result.limits = limits;
  if (text.budgetUnits.trim() !== '') {
    const amountMicros = unitsToMicros(text.budgetUnits);
    if (amountMicros === undefined)
      problems['budgetUnits'] = 'An amount in units with at most 6 decimals, like 25 or 0.5.';
    else result.budget = { amountMicros, period: text.budgetPeriod };
  }
  return result;
}

/** "60 rpm · 2 concurrent · 25.00/month", or "—" where the gateway shows none. */
export function limitsSummary(limits?: Limits | null, budget?: Budget | null): string {
  const parts: string[] = [];
  if (limits?.requestsPerMinute) parts.push(`${limits.requestsPerMinute} rpm`);
  if (limits?.tokensPerMinute) parts.push(`${limits.tokensPerMinute} tpm`);
  if (limits?.concurrentRequests) parts.push(`${limits.concurrentRequests} concurrent`);
  if (limits?.outstandingTasks) parts.push(`${limits.outstandingTasks} tasks`);
  if (budget) parts.push(`${microsToUnits(budget.amountMicros)}/${budget.period}`);
  return parts.length === 0 ? '—' : parts.join(' · ');
}

/** "3 requests this minute · 1 in flight · 2.50 spent this period", or undefined without figures. */
export function currentSummary(current?: GovernanceFigures): string | undefined {
  if (current === undefined) return undefined;
  const parts: string[] = [];
  if (current.requestsThisMinute !== null) parts.push(`${current.requestsThisMinute} requests this minute`);
  if (current.tokensThisMinute !== null) parts.push(`${current.tokensThisMinute} tokens this minute`);
  if (current.inFlight !== null) parts.push(`${current.inFlight} in flight`);
  parts.push(`${current.outstandingTasks} tasks open`);
  if (current.budgetSpentMicros !== null)
    parts.push(`${microsToUnits(current.budgetSpentMicros)} spent this period`);
  return parts.join(' · ');
}
