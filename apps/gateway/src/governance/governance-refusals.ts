import type { BudgetPeriod, LimitName } from '@gateway/auth';
import type { ReservationRefusal } from '@gateway/billing';
import { GatewayError } from '@gateway/errors';

type ScopeKind = 'key' | 'account';

const SCOPE_WORDS: Record<ScopeKind, string> = { key: "the key's", account: "the account's" };
const PERIOD_WORDS: Record<BudgetPeriod, string> = {
  day: 'daily',
  week: 'weekly',
  month: 'monthly',
  total: 'total',
};

/** 429 `rate_limit_exceeded`, naming the limit, with Retry-After and the request's x-ratelimit headers. */
export function limitRefusal(
  scope: ScopeKind,
  limit: LimitName,
  value: number,
  retryAfterMs: number,
  headers: Readonly<Record<string, string>>,
): GatewayError {
  return new GatewayError(
    'rate_limit_exceeded',
    `Rate limit exceeded (rate_limit_exceeded): ${SCOPE_WORDS[scope]} ${limit} limit of ${value} is ` +
      `reached; retry in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.`,
    { retryAfterMs, headers },
  );
}

/** 402 `budget_exceeded`, naming the period and when it resets. */
export function budgetRefusal(
  scope: ScopeKind,
  period: BudgetPeriod,
  amountMicros: bigint,
  resetsAt: number | null,
  headers: Readonly<Record<string, string>>,
): GatewayError {
  const reset =
    resetsAt === null ? 'a total budget never resets' : `it resets at ${new Date(resetsAt).toISOString()}`;
  return new GatewayError(
    'budget_exceeded',
    `Budget exceeded (budget_exceeded): ${SCOPE_WORDS[scope]} ${PERIOD_WORDS[period]} budget of ` +
      `${amountMicros} micros would be exceeded by this request; ${reset}.`,
    { headers },
  );
}

/** 403 `ip_not_allowed`. */
export function ipRefusal(clientIp: string): GatewayError {
  return new GatewayError(
    'ip_not_allowed',
    `IP not allowed (ip_not_allowed): the key may not be used from ${clientIp}.`,
  );
}

export function scopeOfRefusal(refusal: ReservationRefusal): { what: 'budget' | 'tasks'; scope: ScopeKind } {
  const [what, scope] = refusal.split(':') as ['budget' | 'tasks', ScopeKind];
  return { what, scope };
}
