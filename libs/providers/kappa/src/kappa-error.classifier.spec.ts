import { classifyKappaError, classifyKappaStreamError } from './kappa-error.classifier';

describe('classifyKappaError', () => {
  it('finds the reason on any details item whose type tag ends in ErrorInfo', () => {
    const body = JSON.stringify({
      error: {
        code: 400,
        message: 'API key not valid.',
        status: 'INVALID_ARGUMENT',
        details: [
          { '@type': 'type.example/rpc.Help', links: [] },
          { '@type': 'type.example/rpc.ErrorInfo', reason: 'API_KEY_INVALID' },
        ],
      },
    });
    expect(classifyKappaError(400, body, {})).toMatchObject({
      kind: 'auth',
      upstreamCode: 'API_KEY_INVALID',
    });
  });

  it('reads a Retry-After given as an HTTP date', () => {
    const retryAt = new Date(Date.now() + 30_000).toUTCString();
    const failure = classifyKappaError(429, '', { 'retry-after': retryAt });
    expect(failure.kind).toBe('rate_limit');
    expect(failure.retryAfterMs).toBeGreaterThan(25_000);
    expect(failure.retryAfterMs).toBeLessThanOrEqual(30_000);
  });
});

describe('classifyKappaStreamError', () => {
  it('uses the numeric code of the envelope as the status', () => {
    const error = { code: 429, message: 'Quota exceeded.', status: 'RESOURCE_EXHAUSTED' };
    expect(classifyKappaStreamError(error, JSON.stringify({ error }))).toMatchObject({
      kind: 'rate_limit',
      retryable: true,
      httpStatus: 429,
      message: 'Quota exceeded.',
    });
  });

  it('falls back to the status string when there is no numeric code', () => {
    const error = { message: 'Forbidden.', status: 'PERMISSION_DENIED' };
    expect(classifyKappaStreamError(error, JSON.stringify({ error }))).toMatchObject({
      kind: 'auth',
      httpStatus: 403,
    });
  });

  it('treats an envelope it cannot read as a retryable overload', () => {
    expect(classifyKappaStreamError('boom', '{"error":"boom"}')).toMatchObject({
      kind: 'overload',
      retryable: true,
    });
  });
});
