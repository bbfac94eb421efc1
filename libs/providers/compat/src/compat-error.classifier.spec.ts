import { classifyCompatError, classifyCompatStreamError } from './compat-error.classifier';

describe('classifyCompatError', () => {
  it('treats an error body that is not an envelope by its status', () => {
    expect(classifyCompatError(502, '<html>bad gateway</html>', {})).toMatchObject({
      kind: 'overload',
      retryable: true,
      message: 'upstream answered HTTP 502',
    });
    expect(classifyCompatError(422, '', {})).toMatchObject({ kind: 'bad_request', retryable: false });
  });

  it('treats a relay’s 402 as an empty balance', () => {
    expect(classifyCompatError(402, '{"error":{"message":"no credit"}}', {})).toMatchObject({
      kind: 'insufficient_balance',
      retryable: false,
    });
  });
});

describe('classifyCompatStreamError', () => {
  it.each([
    [{ message: 'Rate limit reached.', type: 'requests', code: 'rate_limit_exceeded' }, 'rate_limit', true],
    [
      { message: 'Quota.', type: 'insufficient_quota', code: 'insufficient_quota' },
      'insufficient_balance',
      false,
    ],
    [
      { message: 'Blocked.', type: 'invalid_request_error', code: 'content_policy_violation' },
      'content_policy',
      false,
    ],
    [{ message: 'Server error.', type: 'server_error', code: null }, 'overload', true],
    [{ message: 'Relay says no.', code: 403 }, 'auth', false],
    [{ message: 'Something.' }, 'overload', true],
  ] as const)('classifies %o by its code', (error, kind, retryable) => {
    expect(classifyCompatStreamError(error, JSON.stringify({ error }))).toMatchObject({ kind, retryable });
  });
});
