import { isValidAdminToken } from './admin-token.util';

const ADMIN_TOKEN = 'admin-token-0123456789';

describe('isValidAdminToken', () => {
  it('accepts the exact token', () => {
    expect(isValidAdminToken(ADMIN_TOKEN, ADMIN_TOKEN)).toBe(true);
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['a prefix', ADMIN_TOKEN.slice(0, -1)],
    ['longer', `${ADMIN_TOKEN}x`],
    ['differently cased', ADMIN_TOKEN.toUpperCase()],
    ['an inference key', 'gk_ABCD1234_' + 'a'.repeat(40)],
  ])('refuses a token that is %s', (_case, presented) => {
    expect(isValidAdminToken(presented, ADMIN_TOKEN)).toBe(false);
  });

  it('refuses everything when no admin token is configured', () => {
    expect(isValidAdminToken('', '')).toBe(false);
  });
});
