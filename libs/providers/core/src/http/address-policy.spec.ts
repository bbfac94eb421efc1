import { isRefusedAddress, PrivateHostAllowList } from './address-policy';

describe('isRefusedAddress', () => {
  it.each([
    ['0.0.0.0', 'this network'],
    ['10.1.2.3', 'private 10/8'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT, upper end'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback, whole /8'],
    ['169.254.169.254', 'link-local metadata endpoint'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12, upper end'],
    ['192.168.1.1', 'private 192.168/16'],
    ['192.0.0.170', 'protocol assignments'],
    ['198.18.0.1', 'benchmarking'],
    ['224.0.0.251', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'IPv6 unspecified'],
    ['::1', 'IPv6 loopback'],
    ['fe80::1', 'IPv6 link-local'],
    ['fc00::1', 'unique local'],
    ['fd00:ec2::254', 'unique local metadata endpoint'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata endpoint, hex form'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['64:ff9b::7f00:1', 'NAT64 of 127.0.0.1'],
    ['2002:a9fe:a9fe::1', '6to4 of 169.254.169.254'],
    ['2001:db8::1', 'documentation'],
    ['not-an-address', 'not an address at all'],
  ])('refuses %s (%s)', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each([
    '93.184.215.14',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:93.184.215.14',
    '64:ff9b::5db8:d70e',
  ])('accepts the public address %s', (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });
});

describe('PrivateHostAllowList', () => {
  const allowList = new PrivateHostAllowList([
    'files.internal:8080',
    'Assets.Internal',
    '10.9.0.0/16',
    '192.168.5.5',
    '[::1]:9000',
  ]);

  it('allows a listed host on its listed port only', () => {
    expect(allowList.allows(new URL('http://files.internal:8080/a'), '10.0.0.7')).toBe(true);
    expect(allowList.allows(new URL('http://files.internal:8081/a'), '10.0.0.7')).toBe(false);
  });

  it('allows a listed host without port on every port', () => {
    expect(allowList.allows(new URL('https://assets.internal/x'), '10.0.0.8')).toBe(true);
    expect(allowList.allows(new URL('http://assets.internal:7000/x'), '10.0.0.8')).toBe(true);
  });

  it('allows addresses inside a listed CIDR block or equal to a listed address', () => {
    expect(allowList.allows(new URL('http://any.example/'), '10.9.200.1')).toBe(true);
    expect(allowList.allows(new URL('http://any.example/'), '10.10.0.1')).toBe(false);
    expect(allowList.allows(new URL('http://any.example/'), '192.168.5.5')).toBe(true);
    expect(allowList.allows(new URL('http://any.example/'), '192.168.5.6')).toBe(false);
  });

  it('allows a bracketed IPv6 host with its port', () => {
    expect(allowList.allows(new URL('http://[::1]:9000/'), '::1')).toBe(true);
    expect(allowList.allows(new URL('http://[::1]:9001/'), '::1')).toBe(false);
  });

  it.each(['10.0.0.0/33', 'bad host/8', 'user@host', 'host/path'])(
    'rejects the invalid entry %s',
    (entry) => {
      expect(() => new PrivateHostAllowList([entry])).toThrow(/allow-list/);
    },
  );
});
