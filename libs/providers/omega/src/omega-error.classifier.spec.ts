import { classifyOmegaError, omegaTaskFailureOf } from './omega-error.classifier';

const answer = (code: string): string =>
  JSON.stringify({ request_id: 'r-1', code, message: `${code} happened` });

describe('classifyOmegaError', () => {
  it.each([
    [400, 'InvalidParameter', 'bad_request', false],
    [400, 'DataInspectionFailed', 'content_policy', false],
    [400, 'Arrearage', 'insufficient_balance', false],
    [401, 'InvalidApiKey', 'auth', false],
    [403, 'AccessDenied', 'auth', false],
    [429, 'Throttling', 'rate_limit', true],
    [429, 'Throttling.RateQuota', 'rate_limit', true],
    [429, 'Throttling.AllocationQuota', 'rate_limit', true],
    [500, 'InternalError', 'overload', true],
  ])('classifies HTTP %s %s as %s', (status, code, kind, retryable) => {
    expect(classifyOmegaError(status, answer(code), {})).toEqual({
      kind,
      retryable,
      httpStatus: status,
      message: `${code} happened`,
      upstreamCode: code,
    });
  });

  it('follows the status for a code the table lacks, and for a body without one', () => {
    expect(classifyOmegaError(504, answer('RequestTimeOut'), {})).toMatchObject({
      kind: 'overload',
      retryable: true,
    });
    expect(classifyOmegaError(404, '', {})).toMatchObject({
      kind: 'bad_request',
      message: 'upstream answered HTTP 404',
    });
    expect(classifyOmegaError(400, answer('ThrottlingX'), {})).toMatchObject({ kind: 'bad_request' });
  });

  it('honours Retry-After on a rate limit', () => {
    expect(classifyOmegaError(429, answer('Throttling'), { 'retry-after': '2' })).toMatchObject({
      retryAfterMs: 2000,
    });
  });
});

describe('omegaTaskFailureOf', () => {
  it('classifies a failed task by its code, an unknown code as a retryable upstream failure', () => {
    expect(
      omegaTaskFailureOf('DataInspectionFailed', 'Output data may contain inappropriate content.'),
    ).toEqual({
      kind: 'content_policy',
      retryable: false,
      message: 'Output data may contain inappropriate content.',
      upstreamCode: 'DataInspectionFailed',
    });
    expect(omegaTaskFailureOf('InternalError.Timeout', undefined)).toEqual({
      kind: 'overload',
      retryable: true,
      message: 'the upstream task failed',
      upstreamCode: 'InternalError.Timeout',
    });
  });
});
