import { GatewayError } from '@gateway/errors';
import { StorablePathParamsPipe } from './storable-path-params.pipe';

describe('StorablePathParamsPipe', () => {
  const pipe = new StorablePathParamsPipe();

  it('refuses a path parameter holding NUL with a 400 naming it', () => {
    let refusal: unknown;
    try {
      pipe.transform('acct_\u0000', { type: 'param', data: 'id' });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(GatewayError);
    expect(refusal).toMatchObject({ httpStatus: 400, param: 'id' });
    expect((refusal as GatewayError).message).toBe(
      'id must not contain NUL (U+0000) or unpaired surrogate characters.',
    );
  });

  it('refuses an unpaired surrogate too', () => {
    expect(() => pipe.transform('key_\ud800', { type: 'param', data: 'id' })).toThrow(GatewayError);
  });

  it('passes ordinary parameters, and leaves bodies and queries to their DTO', () => {
    expect(pipe.transform('acct_0123', { type: 'param', data: 'id' })).toBe('acct_0123');
    const body = { name: '\u0000' };
    expect(pipe.transform(body, { type: 'body' })).toBe(body);
  });
});
