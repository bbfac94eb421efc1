import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyBetaError } from './beta-error.classifier';

const fixture = (name: string): string => readFileSync(join(__dirname, '__fixtures__', name), 'utf8');

describe('classifyBetaError', () => {
  it.each([
    ['submit-invalid-param.body', 400, 'bad_request', false, '50205'],
    ['submit-text-risk.body', 400, 'content_policy', false, '50412'],
    ['result-output-blocked.body', 400, 'content_policy', true, '50511'],
    ['error-rate-limit.body', 429, 'rate_limit', true, '50429'],
    ['error-concurrency-limit.body', 429, 'rate_limit', true, '50430'],
    ['error-internal.body', 500, 'overload', true, '50500'],
    ['error-review-internal.body', 400, 'overload', false, '50520'],
    ['error-access-denied.body', 400, 'auth', false, '50400'],
    ['error-signature.body', 401, 'auth', false, 'SignatureDoesNotMatch'],
    ['error-invalid-action.body', 400, 'bad_request', false, 'InvalidActionOrVersion'],
  ])('reads %s (HTTP %i) as %s, retryable %s', (name, status, kind, retryable, upstreamCode) => {
    const failure = classifyBetaError(status, fixture(name), {});
    expect(failure).toMatchObject({ kind, retryable, httpStatus: status, upstreamCode });
    expect(failure.message).toBe(
      JSON.parse(fixture(name)).message ?? JSON.parse(fixture(name)).ResponseMetadata.Error.Message,
    );
  });

  it('honours Retry-After on a rate limit', () => {
    expect(
      classifyBetaError(429, fixture('error-rate-limit.body'), { 'retry-after': '7' }).retryAfterMs,
    ).toBe(7000);
  });

  it.each([
    [400, 'bad_request'],
    [404, 'bad_request'],
    [401, 'auth'],
    [429, 'rate_limit'],
    [502, 'overload'],
  ])('follows the HTTP status %i for a code it does not know, or no envelope at all', (status, kind) => {
    const unknownCode = JSON.stringify({ code: 50999, status: 50999, message: 'Something', data: null });
    expect(classifyBetaError(status, unknownCode, {})).toMatchObject({ kind, upstreamCode: '50999' });
    expect(classifyBetaError(status, '<html>bad gateway</html>', {})).toMatchObject({
      kind,
      message: `upstream answered HTTP ${status}`,
    });
  });

  it('classifies a 2xx envelope with a business code by its code', () => {
    expect(classifyBetaError(200, fixture('submit-text-risk.body'), {}).kind).toBe('content_policy');
  });
});
