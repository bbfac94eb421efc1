import { UpstreamError } from '../upstream-error';
import { failedForMissingOutput, failedOrRethrown } from './task-result.util';

describe('failedForMissingOutput', () => {
  it('fails the task as a retryable overload under the upstream’s word for the finished state', () => {
    expect(failedForMissingOutput('done', 'no video')).toEqual({
      state: 'failed',
      failure: { kind: 'overload', retryable: true, message: 'no video', upstreamCode: 'done' },
    });
  });
});

describe('failedOrRethrown', () => {
  const upstreamError = (kind: UpstreamError['failure']['kind'], retryable: boolean) =>
    new UpstreamError({ kind, retryable, message: kind });

  it('fails the task on an answer about it', () => {
    expect(failedOrRethrown(upstreamError('bad_request', false))).toMatchObject({
      state: 'failed',
      failure: { kind: 'bad_request' },
    });
    expect(failedOrRethrown(upstreamError('auth', false))).toMatchObject({ state: 'failed' });
  });

  it.each([
    ['rate_limit', true],
    ['timeout', true],
    ['overload', true],
  ] as const)('throws a %s again, for the caller to ask later', (kind, retryable) => {
    const error = upstreamError(kind, retryable);
    expect(() => failedOrRethrown(error)).toThrow(error);
  });

  it('throws an error that is not an upstream answer again', () => {
    const error = new TypeError('bug');
    expect(() => failedOrRethrown(error)).toThrow(error);
  });
});
