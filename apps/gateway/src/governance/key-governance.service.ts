import type { Logger } from 'pino';
import type { GovernanceLimits, KeyGovernance, ResolvedKey, ScopeGovernance } from '@gateway/auth';
import {
  budgetPeriodOf,
  type GovernanceReservations,
  type ReservationInput,
  type ReservationRefusal,
} from '@gateway/billing';
import type { GatewayMetrics } from '@gateway/observability';
import type { Clock } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import {
  UNGOVERNED,
  type GovernanceTicket,
  type GovernedOutcome,
  type GovernedRequest,
  type RequestGovernance,
} from '../pipeline/request-governance';
import type { GovernanceRefusalLog } from './governance-refusal-log';
import { budgetRefusal, ipRefusal, limitRefusal, scopeOfRefusal } from './governance-refusals';
import { writeRateLimitHeaders, type WindowFigures } from './rate-limit-headers.util';
import type { LimitRequest, LimitScope, LimitVerdict, RedisLimiter } from './redis-limiter';

export interface KeyGovernanceOptions {
  clock: Clock;
  /** How long a synchronous request's reservation may stay unsettled before the sweep settles it. */
  requestReservationMs: number;
  /** How long a task's reservation may stay unsettled (its task should end well before). */
  taskReservationMs: number;
  /** Retry-After of a refusal by the concurrency and outstanding-task limits. */
  concurrencyRetryAfterMs: number;
  taskRetryAfterMs: number;
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const FAIL_OPEN_WARNING_INTERVAL_MS = 10_000;

/**
 * The RequestGovernance of the pipeline (docs/governance.md): for a key with a governance, checks
 * in order its IP allow-list, its and its account's Redis-held limits (one round trip), then their
 * budgets and outstanding-task limits in Postgres (one round trip, only when one applies). A key
 * without any (ResolvedKey.governance null) is admitted at once at no cost.
 */
export class KeyGovernanceService implements RequestGovernance {
  private lastFailOpenWarningAt = 0;
  /**
   * The limit scopes of each key's governance, built once: a cached key keeps its governance object
   * until it is resolved again, and the limiter keeps what it derives from a scope by the scope object.
   */
  private readonly scopesByGovernance = new WeakMap<KeyGovernance, readonly LimitScope[] | null>();

  constructor(
    private readonly limiter: RedisLimiter,
    private readonly reservations: GovernanceReservations,
    private readonly refusals: GovernanceRefusalLog,
    private readonly metrics: Pick<GatewayMetrics, 'governanceFailOpen'>,
    private readonly logger: Logger,
    private readonly options: KeyGovernanceOptions,
  ) {}

  admit(request: GovernedRequest): GovernanceTicket | Promise<GovernanceTicket> {
    const governance = request.key.governance;
    if (!governance) return UNGOVERNED.admit(request);
    try {
      const decided = this.decide(request, governance, this.options.clock.now());
      return decided instanceof Promise ? decided.catch(this.countRefusal) : decided;
    } catch (error) {
      return this.countRefusal(error);
    }
  }

  /** The pipeline writes the refused request's log row, with the refusal's code as its reason. */
  private readonly countRefusal = (error: unknown): never => {
    if (isRefusal(error)) this.refusals.count(error);
    throw error;
  };

  // perf-machinery: synchronous-admission (docs/performance-machinery.md)
  /**
   * Synchronous while nothing needs a round trip (the key's allowances cover the request and no
   * budget or task limit applies), as most requests of a busy key: a promise per step cost more than
   * the admission itself.
   */
  private decide(
    request: GovernedRequest,
    governance: KeyGovernance,
    now: number,
  ): GovernanceTicket | Promise<GovernanceTicket> {
    if (governance.allowedIps && !governance.allowedIps.allows(request.clientIp)) {
      throw ipRefusal(request.clientIp);
    }
    const limitRequest = this.limitRequestOf(request, governance, now);
    if (!limitRequest) return this.afterLimits(request, governance, now, null, null);
    const verdict = this.limiter.admit(limitRequest);
    if (!(verdict instanceof Promise))
      return this.afterLimits(request, governance, now, limitRequest, verdict);
    return verdict.then((answered) => this.afterLimits(request, governance, now, limitRequest, answered));
  }

  /** The limits' verdict applied (headers, refusal, fail-open), then budgets and outstanding tasks. */
  private afterLimits(
    request: GovernedRequest,
    governance: KeyGovernance,
    now: number,
    limitRequest: LimitRequest | null,
    verdict: LimitVerdict | null,
  ): GovernanceTicket | Promise<GovernanceTicket> {
    let headers = NO_HEADERS;
    let limited: LimitRequest | null = null;
    if (limitRequest && verdict) {
      headers = headersOf(limitRequest, verdict, now);
      if (verdict.kind === 'refused') throw this.limitRefused(verdict, now, headers);
      if (verdict.kind === 'unavailable') this.failOpen(verdict.reason, request);
      else limited = limitRequest;
    }
    const reservation = this.reservationOf(request, governance, now);
    if (!reservation) return { headers, settle: this.settlerOf(request, limited, false) };
    return this.reserve(reservation, request.key, governance, now, headers).then(
      () => ({ headers, settle: this.settlerOf(request, limited, true) }),
      (error: unknown) => {
        if (limited) this.limiter.release(limited, 0);
        throw error;
      },
    );
  }

  /** The Redis part of the request's limits, or null when no per-minute or concurrency limit applies. */
  private limitRequestOf(
    request: GovernedRequest,
    governance: KeyGovernance,
    now: number,
  ): LimitRequest | null {
    let scopes = this.scopesByGovernance.get(governance);
    if (scopes === undefined) {
      scopes = limitScopesOf(request.key, governance);
      this.scopesByGovernance.set(governance, scopes);
    }
    if (scopes === null) return null;
    return {
      accountId: request.key.accountId,
      scopes,
      tokens: Math.max(0, Math.ceil(request.estimatedTokens ?? 0)),
      now,
    };
  }

  /** Budgets and outstanding tasks, in Postgres: refused by a GatewayError. */
  private async reserve(
    input: ReservationInput,
    key: ResolvedKey,
    governance: KeyGovernance,
    now: number,
    headers: Readonly<Record<string, string>>,
  ): Promise<void> {
    const refusal = await this.reservations.reserve(input);
    if (refusal !== null) throw this.reservationRefused(refusal, key, governance, now, headers);
  }

  private reservationOf(
    request: GovernedRequest,
    governance: KeyGovernance,
    now: number,
  ): ReservationInput | null {
    const keyBudget = budgetInput(governance.key, now);
    const accountBudget = budgetInput(governance.account, now);
    const keyTasks = request.createsTask ? governance.key.limits?.outstandingTasks : undefined;
    const accountTasks = request.createsTask ? governance.account.limits?.outstandingTasks : undefined;
    if (!keyBudget && !accountBudget && keyTasks === undefined && accountTasks === undefined) return null;
    return {
      requestId: request.requestId,
      keyId: request.key.id,
      accountId: request.key.accountId,
      amountMicros: request.holdMicros,
      keyBudget,
      accountBudget,
      keyTasks,
      accountTasks,
      expiresAt: now + this.options.requestReservationMs,
    };
  }

  private settlerOf(
    request: GovernedRequest,
    limitRequest: LimitRequest | null,
    reserved: boolean,
  ): (outcome: GovernedOutcome) => void {
    if (!limitRequest && !reserved) return () => undefined;
    let settled = false;
    return (outcome) => {
      if (settled) return;
      settled = true;
      if (limitRequest) {
        const tokenDelta =
          outcome.tokens === undefined ? 0 : Math.round(outcome.tokens) - limitRequest.tokens;
        this.limiter.release(limitRequest, tokenDelta);
      }
      if (reserved) this.settleReservation(request.requestId, outcome);
    };
  }

  private settleReservation(requestId: string, outcome: GovernedOutcome): void {
    const settlement =
      outcome.taskId !== undefined
        ? this.reservations.handOverToTask(
            requestId,
            outcome.taskId,
            this.options.clock.now() + this.options.taskReservationMs,
          )
        : this.reservations.settle(requestId, outcome.costMicros);
    settlement.catch((error: unknown) => {
      // The sweep settles it once it expires.
      this.logger.warn({ err: error, requestId }, 'budget reservation not settled');
    });
  }

  private limitRefused(
    verdict: Extract<LimitVerdict, { kind: 'refused' }>,
    now: number,
    headers: Readonly<Record<string, string>>,
  ): GatewayError {
    const value = verdict.scope.limits[verdict.limit] ?? 0;
    const retryAfterMs =
      verdict.limit === 'concurrentRequests' ? this.options.concurrencyRetryAfterMs : verdict.windowEnd - now;
    return limitRefusal(verdict.scope.kind, verdict.limit, value, retryAfterMs, headers);
  }

  private reservationRefused(
    refusal: ReservationRefusal,
    key: ResolvedKey,
    governance: KeyGovernance,
    now: number,
    headers: Readonly<Record<string, string>>,
  ): GatewayError {
    const { what, scope } = scopeOfRefusal(refusal);
    const rules = scope === 'key' ? governance.key : governance.account;
    if (what === 'tasks') {
      const limit = rules.limits?.outstandingTasks ?? 0;
      return limitRefusal(scope, 'outstandingTasks', limit, this.options.taskRetryAfterMs, headers);
    }
    const budget = rules.budget;
    if (!budget) throw new Error(`budget refusal of ${key.id} without a budget`);
    return budgetRefusal(
      scope,
      budget.period,
      budget.amountMicros,
      budgetPeriodOf(budget.period, now).end,
      headers,
    );
  }

  private failOpen(reason: string, request: GovernedRequest): void {
    this.metrics.governanceFailOpen.inc();
    const now = this.options.clock.now();
    if (now - this.lastFailOpenWarningAt < FAIL_OPEN_WARNING_INTERVAL_MS) return;
    this.lastFailOpenWarningAt = now;
    this.logger.warn(
      { reason, requestId: request.requestId },
      'rate limits not checked (fail open): Redis unavailable; budgets still enforced',
    );
  }
}

/** The key's and its account's scopes of Redis-kept limits; null when neither has one. */
function limitScopesOf(key: ResolvedKey, governance: KeyGovernance): readonly LimitScope[] | null {
  const scopes: LimitScope[] = [];
  const keyLimits = redisLimitsOf(governance.key.limits);
  if (keyLimits) scopes.push({ kind: 'key', id: key.id, limits: keyLimits });
  const accountLimits = redisLimitsOf(governance.account.limits);
  if (accountLimits) scopes.push({ kind: 'account', id: key.accountId, limits: accountLimits });
  return scopes.length === 0 ? null : scopes;
}

/** The limits Redis keeps (per minute and concurrency); outstanding tasks live in Postgres. */
function redisLimitsOf(limits: GovernanceLimits | null): GovernanceLimits | null {
  if (!limits) return null;
  const { requestsPerMinute, tokensPerMinute, concurrentRequests } = limits;
  if (!requestsPerMinute && !tokensPerMinute && !concurrentRequests) return null;
  return { requestsPerMinute, tokensPerMinute, concurrentRequests };
}

function budgetInput(scope: ScopeGovernance, now: number): ReservationInput['keyBudget'] {
  if (!scope.budget) return undefined;
  return { micros: scope.budget.amountMicros, periodStart: budgetPeriodOf(scope.budget.period, now).start };
}

/**
 * The x-ratelimit trios of the request and token limits that apply; where both the key and its account
 * have one, the scope with the least remaining speaks. Absent when Redis did not answer.
 */
function headersOf(
  request: LimitRequest,
  verdict: LimitVerdict,
  now: number,
): Readonly<Record<string, string>> {
  if (verdict.kind === 'unavailable') return NO_HEADERS;
  const admitted = verdict.kind === 'admitted';
  let requests: WindowFigures | undefined;
  let tokens: WindowFigures | undefined;
  const resetMs = verdict.windowEnd - now;
  for (let index = 0; index < request.scopes.length; index += 1) {
    const scope = request.scopes[index];
    // A refused request leaves the counters as they were: what the refused scope held is reported.
    const figures = admitted ? verdict.figures[index] : scope === verdict.scope ? verdict.figures : undefined;
    const { requestsPerMinute, tokensPerMinute } = scope.limits;
    if (requestsPerMinute) {
      const remaining = figures
        ? requestsPerMinute - figures.requests - (admitted ? 1 : 0)
        : requestsPerMinute;
      if (!requests || remaining < requests.remaining)
        requests = { limit: requestsPerMinute, remaining, resetMs };
    }
    if (tokensPerMinute) {
      const remaining = figures
        ? tokensPerMinute - figures.tokens - (admitted ? request.tokens : 0)
        : tokensPerMinute;
      if (!tokens || remaining < tokens.remaining) tokens = { limit: tokensPerMinute, remaining, resetMs };
    }
  }
  const headers: Record<string, string> = {};
  if (requests) writeRateLimitHeaders(headers, 'requests', requests);
  if (tokens) writeRateLimitHeaders(headers, 'tokens', tokens);
  return headers;
}

const REFUSAL_CODES: ReadonlySet<string> = new Set([
  'rate_limit_exceeded',
  'budget_exceeded',
  'ip_not_allowed',
]);

function isRefusal(error: unknown): error is GatewayError {
  return error instanceof GatewayError && REFUSAL_CODES.has(error.code);
}
