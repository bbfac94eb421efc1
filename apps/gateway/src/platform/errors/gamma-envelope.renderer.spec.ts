import { GatewayError } from '@gateway/errors';
import { gammaErrorBody } from './gamma-envelope.renderer';
import { routeFamilyOf } from './route-family';
// The dialect is the routes' declaration: loading them declares /gamma and /v1.
import '../../routes/family/gamma/gamma-video.controller';
import '../../routes/modality/videos/videos.controller';

describe('gamma error envelope', () => {
  it.each([
    [GatewayError.invalidRequest('duration must be one of 5, 10.', 'duration'), 1201],
    [new GatewayError('invalid_json', 'The body is not JSON.'), 1200],
    [new GatewayError('unauthenticated', 'The API key is not valid.'), 1000],
    [new GatewayError('model_not_allowed', 'Not for this key.'), 1103],
    [new GatewayError('not_found', 'No video found.'), 1203],
    [new GatewayError('insufficient_balance', 'Add credit.'), 1101],
    [new GatewayError('rate_limited', 'Slow down.'), 1302],
    [new GatewayError('content_policy', 'Blocked.'), 1301],
    [new GatewayError('service_unavailable', 'Retry shortly.'), 5001],
    [new GatewayError('internal', 'Oops.'), 5000],
  ])('answers %s with code %i, its message and the request id', (error, code) => {
    expect(gammaErrorBody(error, 'req_0123')).toEqual({
      code,
      message: error.message,
      request_id: 'req_0123',
    });
  });

  it('is the dialect of the /gamma routes only', () => {
    expect(routeFamilyOf('/gamma/v1/videos/text2video')).toBe('gamma');
    expect(routeFamilyOf('/gamma')).toBe('gamma');
    expect(routeFamilyOf('/gammaray')).toBe('system');
    expect(routeFamilyOf('/v1/videos')).toBe('openai');
  });
});
