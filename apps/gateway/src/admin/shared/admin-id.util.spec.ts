import { newAdminId } from './admin-id.util';

describe('newAdminId', () => {
  it.each(['ch', 'key', 'acct'] as const)('mints %s ids of a prefix and 24 hex characters', (prefix) => {
    expect(newAdminId(prefix)).toMatch(new RegExp(`^${prefix}_[0-9a-f]{24}$`));
  });

  it('never repeats an id', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newAdminId('key')));
    expect(ids.size).toBe(1000);
  });
});
