import { classOfHttpStatus, failureOfHttpAnswer } from './http-error-class.util';

describe('classOfHttpStatus', () => {
  it.each([
    [401, 'auth', false],
    [403, 'auth', false],
    [429, 'rate_limit', true],
    [400, 'bad_request', false],
    [404, 'bad_request', false],
    [500, 'overload', true],
    [503, 'overload', true],
    [200, 'overload', true],
    [302, 'overload', true],
  ])('reads HTTP %s as %s (retryable: %s)', (status, kind, retryable) => {
    expect(classOfHttpStatus(status)).toEqual([kind, retryable]);
  });
});

describe('failureOfHttpAnswer', () => {
  it('keeps the upstream message and code, and names the status when there is no message', () => {
    expect(
      failureOfHttpAnswer(['bad_request', false], {
        status: 400,
        headers: {},
        message: 'prompt too long',
        upstreamCode: 'InvalidParameter',
      }),
    ).toEqual({
      kind: 'bad_request',
      retryable: false,
      httpStatus: 400,
      message: 'prompt too long',
      upstreamCode: 'InvalidParameter',
    });
    const bare = failureOfHttpAnswer(['overload', true], { status: 502, headers: {} });
    expect(bare).toEqual({
      kind: 'overload',
      retryable: true,
      httpStatus: 502,
      message: 'upstream answered HTTP 502',
    });
    expect(bare).not.toHaveProperty('upstreamCode');
  });

  it('reads Retry-After for a rate limit only', () => {
    const headers = { 'retry-after': '3' };
    expect(failureOfHttpAnswer(['rate_limit', true], { status: 429, headers }).retryAfterMs).toBe(3000);
    expect(failureOfHttpAnswer(['overload', true], { status: 503, headers })).not.toHaveProperty(
      'retryAfterMs',
    );
    expect(failureOfHttpAnswer(['rate_limit', true], { status: 429, headers: {} })).not.toHaveProperty(
      'retryAfterMs',
    );
  });
});
