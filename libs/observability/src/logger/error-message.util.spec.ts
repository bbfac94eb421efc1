import { errorMessageOf } from './error-message.util';

describe('errorMessageOf', () => {
  it("gives an Error's message without its name or stack", () => {
    expect(errorMessageOf(new TypeError('socket hang up'))).toBe('socket hang up');
  });

  it('gives the text of anything else thrown', () => {
    expect(errorMessageOf('plain string')).toBe('plain string');
    expect(errorMessageOf(42)).toBe('42');
    expect(errorMessageOf(undefined)).toBe('undefined');
  });
});
