import { alphaErrorBody } from './alpha-envelope.renderer';
import { GatewayError } from '@gateway/errors';

describe('the alpha error envelope (upstreams §3.6)', () => {
  it('writes the HTTP status as code, a reason, the message and the request id as trace id', () => {
    const error = new GatewayError('insufficient_balance', 'The account balance is too low.');
    expect(alphaErrorBody(error, 'req_0123')).toEqual({
      code: 402,
      reason: 'CreditInsufficient',
      message: 'The account balance is too low.',
      metadata: { trace_id: 'req_0123' },
    });
  });

  it.each([
    [GatewayError.invalidRequest('duration must be 5 seconds for alphaq1', 'duration'), 'FieldInvalid'],
    [GatewayError.invalidRequest('Request body is empty; a JSON object is required.'), 'BadRequest'],
    [new GatewayError('payload_too_large', 'Request body is larger than the limit.'), 'BadRequest'],
    [new GatewayError('unauthenticated', 'No API key provided.'), 'Unauthorized'],
    [new GatewayError('model_not_allowed', 'This key may not use the model.'), 'Forbidden'],
    [new GatewayError('model_not_found', 'No channel offers the model.'), 'ModelUnavailable'],
    [new GatewayError('rate_limited', 'Slow down.'), 'TooManyRequests'],
    [new GatewayError('content_policy', 'The prompt was refused.'), 'TaskPromptPolicyViolation'],
    [new GatewayError('idempotency_conflict', 'Key reused.'), 'Conflict'],
    [new GatewayError('internal', 'Internal error.'), 'InternalServiceFailure'],
  ])('gives %s the reason %s', (error, reason) => {
    expect(alphaErrorBody(error, 'req_1')).toMatchObject({ code: error.httpStatus, reason });
  });

  it('keeps the reason an alpha route chose, but only a §3.6-shaped word', () => {
    const chosen = new GatewayError('not_found', 'No task of yours has this task_id.', {
      param: 'task_id',
      upstreamCode: 'TaskNotFound',
    });
    expect(alphaErrorBody(chosen, 'req_2')).toMatchObject({ code: 404, reason: 'TaskNotFound' });
    const numeric = new GatewayError('invalid_request', 'Bad.', { param: 'x', upstreamCode: '50205' });
    expect(alphaErrorBody(numeric, 'req_3')).toMatchObject({ reason: 'FieldInvalid' });
  });
});
