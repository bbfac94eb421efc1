import { GatewayError } from '@gateway/errors';
import { routeFamilyOf } from './route-family';
import { lambdaErrorBody } from './lambda-envelope.renderer';
// The dialect is the routes' declaration: loading them declares /lambda.
import '../../routes/modality/music/music.controller';

describe('the lambda error envelope', () => {
  it('is the family of the /lambda routes only', () => {
    expect(routeFamilyOf('/lambda/submit/music')).toBe('lambda');
    expect(routeFamilyOf('/lambda/fetch/music_x?y=1')).toBe('lambda');
    expect(routeFamilyOf('/lambdas')).toBe('system');
  });

  it('is {code, message, data: null}, the code never `success`', () => {
    const error = GatewayError.invalidRequest('prompt is required for lyrics.', 'prompt');
    expect(lambdaErrorBody(error)).toEqual({
      code: 'invalid_request',
      message: 'prompt is required for lyrics.',
      data: null,
    });
  });
});
