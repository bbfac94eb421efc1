import { createHash } from 'node:crypto';
import { scrubSensitiveText } from '@gateway/observability';
import { generateApiKey, hashApiKey, looksLikeApiKey } from './api-key.util';

describe('generateApiKey', () => {
  it('builds gk_<8-char prefix id>_<base62 secret> with its prefix and hash', () => {
    const key = generateApiKey();

    expect(key.plaintext).toMatch(/^gk_[A-Za-z0-9]{8}_[A-Za-z0-9]{40}$/);
    expect(key.prefix).toBe(key.plaintext.slice(0, 11));
    expect(key.hash).toBe(createHash('sha256').update(key.plaintext).digest('hex'));
    expect(looksLikeApiKey(key.plaintext)).toBe(true);
  });

  it('never repeats a key or a prefix', () => {
    const keys = Array.from({ length: 2000 }, () => generateApiKey());

    expect(new Set(keys.map((key) => key.plaintext)).size).toBe(2000);
    expect(new Set(keys.map((key) => key.prefix)).size).toBe(2000);
  });

  it('uses the whole base62 alphabet evenly', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i += 1) {
      for (const character of generateApiKey().plaintext.slice(12)) {
        counts.set(character, (counts.get(character) ?? 0) + 1);
      }
    }

    // 80,000 characters over 62 symbols: about 1290 each (standard deviation about 36). A plain
    // modulo of random bytes would give the first 8 symbols about 1560 each.
    expect(counts.size).toBe(62);
    for (const count of counts.values()) expect(count).toBeGreaterThan(1110);
    for (const count of counts.values()) expect(count).toBeLessThan(1470);
  });

  it('produces keys the log scrubber recognises', () => {
    const { plaintext } = generateApiKey();

    expect(scrubSensitiveText(`presented ${plaintext}`)).toBe('presented [redacted]');
  });
});

describe('hashApiKey', () => {
  it('is the SHA-256 hex digest of the whole key', () => {
    expect(hashApiKey('gk_abc')).toBe(createHash('sha256').update('gk_abc').digest('hex'));
    expect(hashApiKey('gk_abc')).toHaveLength(64);
  });
});

describe('looksLikeApiKey', () => {
  it.each([
    ['a short secret', `gk_ABCD1234_${'a'.repeat(31)}`],
    ['a short prefix id', `gk_ABC1234_${'a'.repeat(40)}`],
    ['another scheme', `sk_ABCD1234_${'a'.repeat(40)}`],
    ['a symbol', `gk_ABCD1234_${'a'.repeat(39)}-`],
    ['empty', ''],
  ])('refuses %s', (_case, value) => {
    expect(looksLikeApiKey(value)).toBe(false);
  });
});
