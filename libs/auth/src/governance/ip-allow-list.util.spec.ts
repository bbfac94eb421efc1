import { cidrProblem, ipAllowListOf } from './ip-allow-list.util';

describe('ipAllowListOf', () => {
  it('is null when no range is listed: the key may be used from anywhere', () => {
    expect(ipAllowListOf([])).toBeNull();
  });

  it('matches IPv4 and IPv6 ranges and single addresses', () => {
    const list = ipAllowListOf(['203.0.113.0/24', '2001:db8::/32', '198.51.100.7']);
    expect(list?.allows('203.0.113.200')).toBe(true);
    expect(list?.allows('203.0.114.1')).toBe(false);
    expect(list?.allows('2001:db8:1::5')).toBe(true);
    expect(list?.allows('2001:db9::1')).toBe(false);
    expect(list?.allows('198.51.100.7')).toBe(true);
    expect(list?.allows('198.51.100.8')).toBe(false);
  });

  it('reads an IPv4-mapped IPv6 client as its IPv4 address', () => {
    expect(ipAllowListOf(['127.0.0.0/8'])?.allows('::ffff:127.0.0.1')).toBe(true);
  });

  it('refuses a client address it cannot parse', () => {
    expect(ipAllowListOf(['0.0.0.0/0'])?.allows('not-an-ip')).toBe(false);
  });
});

describe('cidrProblem', () => {
  it.each(['10.0.0.0/8', '::1', '2001:db8::/48', '192.0.2.1'])('accepts %s', (range) => {
    expect(cidrProblem(range)).toBeUndefined();
  });

  it.each(['10.1', '0x0a.0.0.1', '10.0.0.0/33', '::/129', '10.0.0.0/8/1', 'example', '', '10.0.0.0/'])(
    'refuses %s',
    (range) => {
      expect(cidrProblem(range)).toMatch(/CIDR/);
    },
  );
});
