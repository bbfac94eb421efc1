import { UnknownKeyCache } from './unknown-key.cache';

describe('UnknownKeyCache', () => {
  it('remembers a hash until its deadline only', () => {
    const cache = new UnknownKeyCache(10);
    cache.add('hash-a', 1000);

    expect(cache.has('hash-a', 999)).toBe(true);
    expect(cache.has('hash-a', 1000)).toBe(false);
    expect(cache.size).toBe(0);
  });

  it('forgets the oldest hash beyond its capacity', () => {
    const cache = new UnknownKeyCache(2);
    cache.add('hash-a', 1000);
    cache.add('hash-b', 1000);
    cache.add('hash-a', 2000);
    cache.add('hash-c', 1000);

    expect(cache.size).toBe(2);
    expect(cache.has('hash-b', 0)).toBe(false);
    expect(cache.has('hash-a', 0)).toBe(true);
    expect(cache.has('hash-c', 0)).toBe(true);
  });

  it('forgets a hash on request', () => {
    const cache = new UnknownKeyCache(10);
    cache.add('hash-a', 1000);
    cache.delete('hash-a');

    expect(cache.has('hash-a', 0)).toBe(false);
  });
});
