import { keyGovernanceOf, limitsOf } from './governance-columns.util';

describe('keyGovernanceOf', () => {
  it('is null when neither the key nor its account has a rule: the free fast path', () => {
    expect(keyGovernanceOf({})).toBeNull();
    expect(
      keyGovernanceOf({ keyLimits: null, accountLimits: {}, allowedIps: [], keyBudgetMicros: null }),
    ).toBeNull();
  });

  it('reads the key and account rules apart', () => {
    const governance = keyGovernanceOf({
      keyLimits: { requestsPerMinute: 60 },
      accountBudgetMicros: '5000',
      accountBudgetPeriod: 'week',
      allowedIps: ['10.0.0.0/8'],
    });
    expect(governance?.key).toEqual({ limits: { requestsPerMinute: 60 }, budget: null });
    expect(governance?.account).toEqual({
      limits: null,
      budget: { amountMicros: 5000n, period: 'week' },
    });
    expect(governance?.allowedIps?.allows('10.9.9.9')).toBe(true);
  });

  it('ignores a budget without a known period', () => {
    expect(keyGovernanceOf({ keyBudgetMicros: '10', keyBudgetPeriod: 'year' })).toBeNull();
  });
});

describe('limitsOf', () => {
  it('keeps positive integers of known limits only', () => {
    expect(limitsOf({ requestsPerMinute: 5, tokensPerMinute: 0, concurrentRequests: 1.5, other: 3 })).toEqual(
      {
        requestsPerMinute: 5,
      },
    );
    expect(limitsOf([5])).toBeNull();
    expect(limitsOf(null)).toBeNull();
  });
});
