import { BlockList, isIP } from 'node:net';

export type AddressFamily = 'ipv4' | 'ipv6';

/** IPv4 ranges no client-supplied URL may reach: private, loopback, link-local (metadata), CGNAT, multicast … */
const REFUSED_IPV4_RANGES: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (also some cloud metadata services)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, where cloud metadata endpoints live
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
];

const REFUSED_IPV6_RANGES: ReadonlyArray<readonly [string, number]> = [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 32], // Teredo, whose embedded IPv4 addresses are obfuscated
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // former site-local
  ['ff00::', 8], // multicast
];

function hextet(high: number, low: number): string {
  return ((high << 8) | low).toString(16);
}

/**
 * IPv6 forms that carry an IPv4 address get the IPv4 rules: NAT64 (64:ff9b::/96) and 6to4 (2002::/16).
 * IPv4-mapped addresses (::ffff:a.b.c.d) are matched against IPv4 rules by BlockList itself.
 */
function addEmbeddedIpv4Ranges(blockList: BlockList, network: string, prefix: number): void {
  const [a, b, c, d] = network.split('.').map(Number);
  blockList.addSubnet(`64:ff9b::${hextet(a, b)}:${hextet(c, d)}`, 96 + prefix, 'ipv6');
  blockList.addSubnet(`2002:${hextet(a, b)}:${hextet(c, d)}::`, 16 + prefix, 'ipv6');
}

function buildRefusedAddresses(): BlockList {
  const blockList = new BlockList();
  for (const [network, prefix] of REFUSED_IPV4_RANGES) {
    blockList.addSubnet(network, prefix, 'ipv4');
    addEmbeddedIpv4Ranges(blockList, network, prefix);
  }
  for (const [network, prefix] of REFUSED_IPV6_RANGES) blockList.addSubnet(network, prefix, 'ipv6');
  return blockList;
}

const REFUSED_ADDRESSES = buildRefusedAddresses();

export function addressFamilyOf(address: string): AddressFamily | undefined {
  const version = isIP(address);
  if (version === 4) return 'ipv4';
  return version === 6 ? 'ipv6' : undefined;
}

/** Whether an address lies in a range that client-supplied URLs may not reach by default. */
export function isRefusedAddress(address: string): boolean {
  const family = addressFamilyOf(address);
  return family === undefined || REFUSED_ADDRESSES.check(address, family);
}

interface AllowedHost {
  /** As URL.hostname gives it: lower case, IPv6 literals in brackets. */
  hostname: string;
  /** Absent: every port. */
  port?: string;
}

/**
 * The operator's exceptions to the refused ranges: `host`, `host:port`, `[v6]:port`, an IP address or
 * a CIDR block. Invalid entries throw at construction, so a typo fails at boot.
 */
export class PrivateHostAllowList {
  private readonly hosts: AllowedHost[] = [];
  private readonly addresses = new BlockList();

  constructor(entries: readonly string[]) {
    for (const entry of entries) this.add(entry.trim().toLowerCase());
  }

  /** Whether a URL whose host resolved to `address` may be fetched although the address is refused. */
  allows(url: URL, address: string): boolean {
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    const hostAllowed = this.hosts.some(
      (host) => host.hostname === url.hostname && (host.port === undefined || host.port === port),
    );
    if (hostAllowed) return true;
    const family = addressFamilyOf(address);
    return family !== undefined && this.addresses.check(address, family);
  }

  private add(entry: string): void {
    const slash = entry.indexOf('/');
    if (slash !== -1) {
      const network = entry.slice(0, slash);
      const prefix = Number(entry.slice(slash + 1));
      const family = addressFamilyOf(network);
      const maxPrefix = family === 'ipv4' ? 32 : 128;
      if (!family || !Number.isInteger(prefix) || prefix < 0 || prefix > maxPrefix) {
        throw new Error(`invalid CIDR in the private host allow-list: ${entry}`);
      }
      this.addresses.addSubnet(network, prefix, family);
      return;
    }
    const family = addressFamilyOf(entry);
    if (family) {
      this.addresses.addAddress(entry, family);
      return;
    }
    this.hosts.push(parseAllowedHost(entry));
  }
}

function parseAllowedHost(entry: string): AllowedHost {
  let url: URL;
  try {
    url = new URL(`http://${entry}`);
  } catch {
    throw new Error(`invalid host in the private host allow-list: ${entry}`);
  }
  if (url.host !== entry && url.host !== entry.replace(/:80$/, '')) {
    throw new Error(`invalid host in the private host allow-list: ${entry}`);
  }
  const explicitPort = /:(\d+)$/.exec(entry)?.[1];
  return { hostname: url.hostname, port: explicitPort };
}
