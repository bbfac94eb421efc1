import type { Problems } from '../../forms/validation.util';
import { currentSummary, limitsSummary, limitsText, parseLimits } from './limits.util';

describe('limits and budgets in the console', () => {
  it('sends nothing when every field is empty (a gateway without them refuses unknown fields)', () => {
    const problems: Problems = {};
    expect(parseLimits(limitsText(), problems)).toEqual({});
    expect(problems).toEqual({});
  });

  it('sends only the limits given, and the budget in micros', () => {
    const problems: Problems = {};
    const text = {
      ...limitsText(),
      requestsPerMinute: '60',
      concurrentRequests: '2',
      budgetUnits: '12.5',
      budgetPeriod: 'week' as const,
    };
    expect(parseLimits(text, problems)).toEqual({
      limits: { requestsPerMinute: 60, concurrentRequests: 2 },
      budget: { amountMicros: '12500000', period: 'week' },
    });
    expect(problems).toEqual({});
  });

  it('names each field it cannot read', () => {
    const problems: Problems = {};
    parseLimits(
      { ...limitsText(), tokensPerMinute: '0', outstandingTasks: 'many', budgetUnits: '-3' },
      problems,
    );
    expect(Object.keys(problems).sort()).toEqual(['budgetUnits', 'outstandingTasks', 'tokensPerMinute']);
  });

  it('reads what the gateway shows back into the form and into one line', () => {
    const limits = { requestsPerMinute: 600, tokensPerMinute: null };
    const budget = { amountMicros: '20000000', period: 'month' as const };
    expect(limitsText(limits, budget)).toMatchObject({
      requestsPerMinute: '600',
      tokensPerMinute: '',
      budgetUnits: '20.00',
    });
    expect(limitsSummary(limits, budget)).toBe('600 rpm · 20.00/month');
    expect(limitsSummary(undefined, null)).toBe('—');
    expect(
      currentSummary({
        requestsThisMinute: 3,
        tokensThisMinute: null,
        inFlight: 1,
        outstandingTasks: 0,
        budgetSpentMicros: '2500000',
        budgetResetsAt: null,
      }),
    ).toBe('3 requests this minute · 1 in flight · 0 tasks open · 2.50 spent this period');
    expect(currentSummary(undefined)).toBeUndefined();
  });
});
