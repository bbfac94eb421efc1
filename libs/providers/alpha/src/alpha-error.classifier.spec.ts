import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { alphaTaskFailure, classifyAlphaError } from './alpha-error.classifier';

const fixture = (name: string): string => readFileSync(join(__dirname, '__fixtures__', name), 'utf8');

describe('classifyAlphaError', () => {
  it.each([
    ['error-unauthorized.body', 401, 'auth', false, 'Unauthorized'],
    ['error-forbidden.body', 403, 'auth', false, 'Forbidden'],
    ['error-credit-insufficient.body', 400, 'insufficient_balance', false, 'CreditInsufficient'],
    ['error-prompt-policy.body', 400, 'content_policy', false, 'TaskPromptPolicyViolation'],
    ['error-field-invalid.body', 400, 'bad_request', false, 'FieldInvalid'],
    ['error-operation-in-process.body', 400, 'rate_limit', true, 'OperationInProcess'],
    ['error-too-many-requests.body', 429, 'rate_limit', true, 'TooManyRequests'],
    ['error-quota-exceeded.body', 429, 'rate_limit', true, 'QuotaExceeded'],
    ['error-internal.body', 500, 'overload', true, 'InternalServiceFailure'],
    ['error-task-not-found.body', 404, 'bad_request', false, 'TaskNotFound'],
    ['error-user-cancelled.body', 400, 'bad_request', false, 'UserCancelled'],
  ])('reads %s (HTTP %i) as %s, retryable %s', (name, status, kind, retryable, upstreamCode) => {
    expect(classifyAlphaError(status, fixture(name), {})).toEqual({
      kind,
      retryable,
      httpStatus: status,
      message: JSON.parse(fixture(name)).message,
      upstreamCode,
    });
  });

  it('honours Retry-After on a rate limit', () => {
    expect(
      classifyAlphaError(429, fixture('error-too-many-requests.body'), { 'retry-after': '3' }).retryAfterMs,
    ).toBe(3000);
  });

  it.each([
    [400, 'bad_request'],
    [409, 'bad_request'],
    [401, 'auth'],
    [429, 'rate_limit'],
    [503, 'overload'],
  ])('follows the HTTP status %i for a reason it does not know, or no envelope at all', (status, kind) => {
    const unknown = JSON.stringify({ code: status, reason: 'SomethingNew', message: 'new' });
    expect(classifyAlphaError(status, unknown, {})).toMatchObject({ kind, upstreamCode: 'SomethingNew' });
    expect(classifyAlphaError(status, '<html>bad gateway</html>', {})).toEqual({
      kind,
      retryable: kind === 'rate_limit' || kind === 'overload',
      httpStatus: status,
      message: `upstream answered HTTP ${status}`,
    });
  });

  it('is not fooled by a reason that names an object member', () => {
    const body = JSON.stringify({ code: 400, reason: 'constructor', message: 'x' });
    expect(classifyAlphaError(400, body, {})).toMatchObject({
      kind: 'bad_request',
      upstreamCode: 'constructor',
    });
  });
});

describe('alphaTaskFailure', () => {
  it.each([
    [
      'CreationPolicyViolation',
      'content_policy',
      false,
      'the upstream task failed (CreationPolicyViolation)',
    ],
    ['InternalServiceFailure', 'overload', true, 'the upstream task failed (InternalServiceFailure)'],
    ['UserCancelled', 'bad_request', false, 'the upstream task was cancelled'],
    ['Canceled', 'bad_request', false, 'the upstream task was cancelled'],
    ['NewCode', 'overload', true, 'the upstream task failed (NewCode)'],
  ])('reads the err_code %s as %s', (errCode, kind, retryable, message) => {
    expect(alphaTaskFailure(errCode)).toEqual({ kind, retryable, message, upstreamCode: errCode });
  });

  it('reads a failure without a code as an overload', () => {
    expect(alphaTaskFailure('')).toEqual({
      kind: 'overload',
      retryable: true,
      message: 'the upstream task failed',
    });
  });
});
