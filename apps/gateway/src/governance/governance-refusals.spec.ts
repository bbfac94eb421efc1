import { alphaErrorBody } from '../platform/errors/alpha-envelope.renderer';
import { betaErrorBody } from '../platform/errors/beta-envelope.renderer';
import { nativeErrorBody, openAiErrorBody } from '../platform/errors/error-envelope.renderer';
import { gammaErrorBody } from '../platform/errors/gamma-envelope.renderer';
import { lambdaErrorBody } from '../platform/errors/lambda-envelope.renderer';
import { budgetRefusal, ipRefusal, limitRefusal } from './governance-refusals';

const context = { requestId: 'req_1', startedAt: Date.now(), action: 'CVSync2AsyncSubmitTask', version: 'v' };

describe('governance refusals in every dialect', () => {
  const limit = limitRefusal('account', 'requestsPerMinute', 60, 12_300, {
    'x-ratelimit-limit-requests': '60',
  });
  const budget = budgetRefusal('key', 'week', 5000n, Date.parse('2026-11-30T00:00:00Z'), {});
  const address = ipRefusal('198.51.100.1');

  it('carries the status, Retry-After and the headers', () => {
    expect([limit.httpStatus, budget.httpStatus, address.httpStatus]).toEqual([429, 402, 403]);
    expect(limit.options.retryAfterMs).toBe(12_300);
    expect(limit.options.headers).toEqual({ 'x-ratelimit-limit-requests': '60' });
    expect(limit.message).toContain("the account's requestsPerMinute limit of 60");
    expect(budget.message).toContain("the key's weekly budget of 5000 micros");
    expect(budget.message).toContain('resets at 2026-11-30T00:00:00.000Z');
  });

  it('names its code in the OpenAI-style, native and family envelopes', () => {
    expect(openAiErrorBody(limit)).toMatchObject({
      error: { code: 'rate_limit_exceeded', type: 'rate_limit_error' },
    });
    expect(openAiErrorBody(budget)).toMatchObject({ error: { code: 'budget_exceeded' } });
    expect(openAiErrorBody(address)).toMatchObject({
      error: { code: 'ip_not_allowed', type: 'permission_error' },
    });
    expect(nativeErrorBody(limit)).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } });
    expect(nativeErrorBody(address)).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } });
    expect(JSON.stringify(nativeErrorBody(budget))).toContain('budget_exceeded');
    expect(alphaErrorBody(limit, 'req_1')).toMatchObject({ code: 429, reason: 'TooManyRequests' });
    expect(gammaErrorBody(limit, 'req_1')).toMatchObject({ code: 1302 });
    expect(gammaErrorBody(budget, 'req_1')).toMatchObject({ code: 1101 });
    expect(betaErrorBody(limit, context)).toMatchObject({ code: 50429 });
    expect(lambdaErrorBody(address)).toEqual({
      code: 'ip_not_allowed',
      message: address.message,
      data: null,
    });
  });
});
