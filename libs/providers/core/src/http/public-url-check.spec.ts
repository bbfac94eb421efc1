import { createPublicUrlCheck, SafeFetchError, type ResolvedAddress } from './safe-fetcher';

async function refusalOf(promise: Promise<unknown>): Promise<SafeFetchError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SafeFetchError) return error;
    throw error;
  }
  throw new Error('expected the URL to be refused');
}

/** A resolver answering from a table, so that no test depends on the machine's DNS. */
const resolveFrom =
  (table: Record<string, string[]>) =>
  async (hostname: string): Promise<ResolvedAddress[]> =>
    (table[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('createPublicUrlCheck', () => {
  const check = createPublicUrlCheck({
    resolveHost: resolveFrom({
      'cdn.test': ['93.184.0.10'],
      'mixed.test': ['93.184.0.11', '10.0.0.7'],
      'metadata.test': ['169.254.169.254'],
      'store.internal': ['10.1.2.3'],
    }),
    allowPrivateHosts: ['store.internal:9000'],
  });

  it('passes a public http(s) URL, by name or by address, without fetching it', async () => {
    await expect(check('https://cdn.test/cat.png')).resolves.toBeUndefined();
    await expect(check('http://93.184.0.12:8080/cat.png')).resolves.toBeUndefined();
  });

  it.each([
    ['http://127.0.0.1:4010/files/a.png', 'forbidden_address'],
    ['http://10.0.0.5/a.png', 'forbidden_address'],
    ['http://[::1]/a.png', 'forbidden_address'],
    ['https://metadata.test/latest', 'forbidden_address'],
    ['https://mixed.test/a.png', 'forbidden_address'],
    ['https://nowhere.test/a.png', 'unresolvable_host'],
    ['ftp://cdn.test/a.png', 'invalid_url'],
    ['file:///etc/passwd', 'invalid_url'],
    ['https://user:pass@cdn.test/a.png', 'invalid_url'],
    ['cat.png', 'invalid_url'],
  ])('refuses %s (%s)', async (url, code) => {
    expect((await refusalOf(check(url))).code).toBe(code);
  });

  it("lets the operator's allow-list through, on its port only", async () => {
    await expect(check('http://store.internal:9000/a.png')).resolves.toBeUndefined();
    expect((await refusalOf(check('http://store.internal:9001/a.png'))).code).toBe('forbidden_address');
  });
});
