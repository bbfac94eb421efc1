import { budgetOf, limitsOf, type GovernanceBudget, type GovernanceLimits } from '@gateway/auth';
import { accountScope, budgetPeriodOf, keyScope, type GovernanceReservations } from '@gateway/billing';
import type { GovernanceFiguresView } from '@gateway/contracts';
import type { Clock } from '@gateway/providers-core';
import type { RedisLimiter } from './redis-limiter';

/** A key's or an account's stored governance, as the admin views read it. */
export interface StoredGovernance {
  kind: 'key' | 'account';
  id: string;
  accountId: string;
  limits: unknown;
  budgetMicros: bigint | null;
  budgetPeriod: string | null;
}

/** Where a key (account) stands now: this minute's counts, in flight, outstanding tasks, budget spent. */
export class GovernanceFigures {
  constructor(
    private readonly limiter: RedisLimiter,
    private readonly reservations: GovernanceReservations,
    private readonly clock: Clock,
  ) {}

  async of(stored: StoredGovernance): Promise<GovernanceFiguresView> {
    const now = this.clock.now();
    const limits = limitsOf(stored.limits);
    const budget = budgetOf(stored.budgetMicros?.toString(), stored.budgetPeriod);
    const scope = stored.kind === 'key' ? keyScope(stored.id) : accountScope(stored.id);
    const [counters, outstandingTasks, spent] = await Promise.all([
      limits ? this.countersOf(stored, limits, now) : null,
      this.reservations.outstandingTasks(scope),
      budget ? this.spentOf(scope, budget, now) : null,
    ]);
    return {
      requestsThisMinute: limits?.requestsPerMinute ? (counters?.requests ?? null) : null,
      tokensThisMinute: limits?.tokensPerMinute ? (counters?.tokens ?? null) : null,
      inFlight: limits?.concurrentRequests ? (counters?.slots ?? null) : null,
      outstandingTasks,
      budgetSpentMicros: spent === null ? null : spent.toString(),
      budgetResetsAt: budgetResetOf(budget, now),
    };
  }

  private countersOf(stored: StoredGovernance, limits: GovernanceLimits, now: number) {
    return this.limiter.figuresOf(stored.accountId, { kind: stored.kind, id: stored.id, limits }, now);
  }

  private async spentOf(scope: string, budget: GovernanceBudget, now: number): Promise<bigint> {
    const figures = await this.reservations.budgetFigures(scope, budgetPeriodOf(budget.period, now).start);
    return figures.spentMicros + figures.reservedMicros;
  }
}

function budgetResetOf(budget: GovernanceBudget | null, now: number): string | null {
  if (!budget) return null;
  const { end } = budgetPeriodOf(budget.period, now);
  return end === null ? null : new Date(end).toISOString();
}
