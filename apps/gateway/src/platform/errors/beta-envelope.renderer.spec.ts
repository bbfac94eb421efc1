import { betaEnvelope, betaErrorBody, type BetaAnswerContext } from './beta-envelope.renderer';
import { GatewayError } from '@gateway/errors';

const CONTEXT: BetaAnswerContext = {
  requestId: 'req_0123',
  startedAt: Date.now(),
  action: 'CVSync2AsyncSubmitTask',
  version: '2022-08-31',
};

describe('beta envelopes', () => {
  it('writes the code twice, the request id and the time taken', () => {
    expect(betaEnvelope(10000, 'Success', { task_id: 'bt_1' }, CONTEXT)).toEqual({
      code: 10000,
      status: 10000,
      message: 'Success',
      request_id: 'req_0123',
      time_elapsed: expect.stringMatching(/^\d+ms$/),
      data: { task_id: 'bt_1' },
    });
  });

  it.each([
    [GatewayError.invalidRequest('Action is required.', 'Action'), 'InvalidActionOrVersion'],
    [GatewayError.invalidRequest('Version is required.', 'Version'), 'InvalidActionOrVersion'],
    [new GatewayError('unauthenticated', 'No API key provided.'), 'InvalidAuthorization'],
  ])('answers %s before any action in ResponseMetadata.Error', (error, code) => {
    expect(betaErrorBody(error, CONTEXT)).toEqual({
      ResponseMetadata: {
        RequestId: 'req_0123',
        Action: 'CVSync2AsyncSubmitTask',
        Version: '2022-08-31',
        Error: { Code: code, Message: error.message },
      },
    });
  });

  it.each([
    [GatewayError.invalidRequest('prompt is required.', 'prompt'), 50205],
    [new GatewayError('insufficient_balance', 'The account balance is too low.'), 50400],
    [new GatewayError('model_not_allowed', 'This key may not use beta-4.0.'), 50400],
    [new GatewayError('rate_limited', 'Too many requests.'), 50429],
    [new GatewayError('upstream_unavailable', 'No channel could serve the request.'), 50500],
    [new GatewayError('payload_too_large', 'Request body is too large.'), 50205],
    [new GatewayError('content_policy', 'Blocked.', { upstreamCode: '50511' }), 50511],
    [new GatewayError('content_policy', 'Blocked.', { upstreamCode: 'moderation_blocked' }), 50412],
  ])('answers %s with business code %i and the explanation', (error, code) => {
    expect(betaErrorBody(error, CONTEXT)).toMatchObject({
      code,
      status: code,
      message: error.message,
      data: null,
    });
  });
});
