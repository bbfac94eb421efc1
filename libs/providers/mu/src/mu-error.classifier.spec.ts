import { classifyMuError } from './mu-error.classifier';

const answer = (code: number, message = 'msg'): string =>
  JSON.stringify({ base_resp: { status_code: code, status_msg: message } });

describe('classifyMuError', () => {
  it.each([
    [1000, 'overload', true],
    [1001, 'overload', true],
    [1002, 'rate_limit', true],
    [1004, 'auth', false],
    [1008, 'insufficient_balance', false],
    [1013, 'overload', true],
    [1026, 'content_policy', false],
    [1027, 'content_policy', false],
    [1039, 'rate_limit', true],
    [2013, 'bad_request', false],
    [2049, 'auth', false],
  ])('classifies base_resp %s on HTTP 200 as %s', (code, kind, retryable) => {
    expect(classifyMuError(200, answer(code, 'the message'), {})).toEqual({
      kind,
      retryable,
      httpStatus: 200,
      message: 'the message',
      upstreamCode: String(code),
    });
  });

  it('takes a code the table lacks on HTTP 200 as the request at fault', () => {
    expect(classifyMuError(200, answer(2999), {})).toMatchObject({ kind: 'bad_request', retryable: false });
  });

  it.each([
    [401, 'auth'],
    [403, 'auth'],
    [429, 'rate_limit'],
    [502, 'overload'],
    [404, 'bad_request'],
  ])('follows HTTP %s without a code', (status, kind) => {
    expect(classifyMuError(status, '<html>busy</html>', {})).toMatchObject({
      kind,
      httpStatus: status,
      message: `upstream answered HTTP ${status}`,
    });
  });

  it('honours Retry-After on a rate limit', () => {
    expect(classifyMuError(200, answer(1039), { 'retry-after': '7' })).toMatchObject({
      kind: 'rate_limit',
      retryAfterMs: 7000,
    });
  });
});
