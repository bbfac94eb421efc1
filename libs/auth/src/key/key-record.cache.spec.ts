import { KeyRecordCache, type KeyRecord } from './key-record.cache';

function recordOf(id: string, accountId = 'acct'): KeyRecord {
  return {
    active: true,
    key: { id, accountId, prefix: 'gk_x', allowedModels: null, expiresAt: null },
  };
}

describe('KeyRecordCache', () => {
  it('serves an entry until its deadline only', () => {
    const cache = new KeyRecordCache(10);
    cache.set('hash-a', recordOf('key_a'), 1000);

    expect(cache.get('hash-a', 999)?.record.key.id).toBe('key_a');
    expect(cache.get('hash-a', 1000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('drops entries by hash or by key id', () => {
    const cache = new KeyRecordCache(10);
    cache.set('hash-a', recordOf('key_a'), 1000);
    cache.set('hash-b', recordOf('key_b'), 1000);
    cache.set('hash-c', recordOf('key_c'), 1000);

    cache.drop('hash-a');
    cache.drop('key_b');

    expect(cache.get('hash-a', 0)).toBeUndefined();
    expect(cache.get('hash-b', 0)).toBeUndefined();
    expect(cache.get('hash-c', 0)?.record.key.id).toBe('key_c');
  });

  it("drops every key of an account by the account id (a change of the account's governance)", () => {
    const cache = new KeyRecordCache(10);
    cache.set('hash-a', recordOf('key_a', 'acct_1'), 1000);
    cache.set('hash-b', recordOf('key_b', 'acct_1'), 1000);
    cache.set('hash-c', recordOf('key_c', 'acct_2'), 1000);

    cache.drop('acct_1');

    expect(cache.get('hash-a', 0)).toBeUndefined();
    expect(cache.get('hash-b', 0)).toBeUndefined();
    expect(cache.get('hash-c', 0)?.record.key.id).toBe('key_c');
  });

  it('evicts the oldest entry beyond its capacity', () => {
    const cache = new KeyRecordCache(2);
    cache.set('hash-a', recordOf('key_a'), 1000);
    cache.set('hash-b', recordOf('key_b'), 1000);
    cache.set('hash-a', recordOf('key_a'), 2000);
    cache.set('hash-c', recordOf('key_c'), 1000);

    expect(cache.size).toBe(2);
    expect(cache.get('hash-b', 0)).toBeUndefined();
    expect(cache.get('hash-a', 0)).toBeDefined();
  });
});
