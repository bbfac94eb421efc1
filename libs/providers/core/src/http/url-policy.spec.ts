import { HOSTILE_URLS } from '../testing/hostile-urls';
import { PrivateHostAllowList } from './address-policy';
import { SafeFetchError } from './safe-fetch-error';
import { createSafeFetcher } from './safe-fetcher';
import { checkForwardedUrl } from './url-policy';

function refusalOf(check: () => unknown): SafeFetchError {
  try {
    check();
  } catch (error) {
    if (error instanceof SafeFetchError) return error;
    throw error;
  }
  throw new Error('expected the URL to be refused');
}

describe('checkForwardedUrl', () => {
  const nobodyAllowed = new PrivateHostAllowList([]);

  it.each(HOSTILE_URLS)('refuses %s: %s', (_name, url) => {
    expect(['invalid_url', 'forbidden_address']).toContain(
      refusalOf(() => checkForwardedUrl(url, nobodyAllowed)).code,
    );
  });

  it.each([
    ['http://127.0.0.1/a.png', 'forbidden_address'],
    ['http://0x7f.1/a.png', 'forbidden_address'],
    ['http://[::ffff:127.0.0.1]/a.png', 'forbidden_address'],
    ['http://localhost/a.png', 'forbidden_address'],
    ['http://good.example@127.0.0.1/a.png', 'invalid_url'],
    ['ftp://images.example/a.png', 'invalid_url'],
  ])('names why %s is refused (%s)', (url, code) => {
    expect(refusalOf(() => checkForwardedUrl(url, nobodyAllowed)).code).toBe(code);
  });

  it.each([
    'https://images.example/cat.png',
    'http://images.example:8080/cat.png?size=large#top',
    'https://93.184.0.12/cat.png',
    'http://[2606:4700::1111]/cat.png',
    'https://[::ffff:93.184.0.12]/cat.png',
    'https://127.0.0.1.images.example/cat.png',
    'https://localhost.images.example/cat.png',
    'https://nowhere.invalid/cat.png',
  ])('passes %s without looking its host up', (url) => {
    expect(checkForwardedUrl(url, nobodyAllowed).href).toBe(new URL(url).href);
  });

  it("lets the operator's allow-list through: a host on its port only, an address, a range", () => {
    const allowList = new PrivateHostAllowList(['127.0.0.1:4010', '10.0.0.0/8', 'localhost:4011']);
    expect(() => checkForwardedUrl('http://127.0.0.1:4010/files/a.png', allowList)).not.toThrow();
    expect(() => checkForwardedUrl('http://10.1.2.3/a.png', allowList)).not.toThrow();
    expect(() => checkForwardedUrl('http://localhost:4011/a.png', allowList)).not.toThrow();
    expect(refusalOf(() => checkForwardedUrl('http://127.0.0.1:4011/a.png', allowList)).code).toBe(
      'forbidden_address',
    );
    expect(refusalOf(() => checkForwardedUrl('http://localhost:4010/a.png', allowList)).code).toBe(
      'forbidden_address',
    );
    // The allow-list lifts the address rule only: credentials and odd spellings stay refused.
    expect(refusalOf(() => checkForwardedUrl('http://u:p@127.0.0.1:4010/a.png', allowList)).code).toBe(
      'invalid_url',
    );
  });
});

describe('the SSRF-safe fetcher under the same policy', () => {
  // Every name resolves to loopback here: no hostile URL may reach the network either way.
  const fetcher = createSafeFetcher({
    maxBytes: 1024,
    timeoutMs: 1_000,
    maxRedirects: 0,
    resolveHost: async () => [{ address: '127.0.0.1', family: 4 }],
  });

  it.each(HOSTILE_URLS.filter(([, url]) => /^https?:\/\/[^\\\s]+$/i.test(url)))(
    'refuses %s: %s before connecting',
    async (_name, url) => {
      const refusal = await fetcher.fetch(url).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(SafeFetchError);
      expect(['invalid_url', 'forbidden_address']).toContain((refusal as SafeFetchError).code);
    },
  );
});
