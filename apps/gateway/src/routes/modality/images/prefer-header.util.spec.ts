import { prefersRespondAsync } from './prefer-header.util';

const asked = (prefer?: string | string[]) =>
  prefersRespondAsync({ headers: prefer === undefined ? {} : { prefer } });

describe('prefersRespondAsync (RFC 7240)', () => {
  it('reads respond-async alone, in any case, among other preferences, or in a repeated header', () => {
    expect(asked('respond-async')).toBe(true);
    expect(asked('Respond-Async')).toBe(true);
    expect(asked('return=minimal, respond-async, wait=10')).toBe(true);
    expect(asked(' respond-async ; foo=bar')).toBe(true);
    expect(asked(['wait=5', 'respond-async'])).toBe(true);
  });

  it('ignores what is absent, unknown or malformed, as the RFC says, instead of refusing it', () => {
    expect(asked()).toBe(false);
    expect(asked('')).toBe(false);
    expect(asked('return=representation')).toBe(false);
    expect(asked('respond-asyncx')).toBe(false);
    expect(asked('respond_async')).toBe(false);
    expect(asked('"respond-async"')).toBe(false);
    expect(asked('wait=respond-async')).toBe(false);
    expect(asked(',,;;==')).toBe(false);
    expect(asked('x'.repeat(10_000))).toBe(false);
  });
});
