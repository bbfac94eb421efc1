import ipaddr from 'ipaddr.js';

/** Parsed CIDR ranges, IPv4 and IPv6; an IPv4-mapped IPv6 client address matches IPv4 ranges. */
export interface IpAllowList {
  readonly ranges: readonly string[];
  allows(address: string): boolean;
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Why a CIDR range is refused, or undefined when it parses (a bare address is a /32 or /128). */
export function cidrProblem(range: string): string | undefined {
  try {
    parseRange(range);
    return undefined;
  } catch {
    return 'must be an IPv4 or IPv6 address or CIDR range, such as 203.0.113.0/24 or 2001:db8::/32';
  }
}

export function ipAllowListOf(ranges: readonly string[]): IpAllowList | null {
  if (ranges.length === 0) return null;
  // A range that does not parse (written around the admin API's validation) allows nobody: fail closed.
  const parsed = ranges.flatMap((range) => {
    try {
      return [parseRange(range)];
    } catch {
      return [];
    }
  });
  return {
    ranges: [...ranges],
    allows(address: string): boolean {
      const client = parseClient(address);
      if (client === null) return false;
      return parsed.some(([base, bits]) => base.kind() === client.kind() && client.match(base, bits));
    },
  };
}

/** Strict: IPv4 in four decimal parts only (ipaddr.js would also read `10.1` or `0x0a.0.0.1`). */
function parseRange(range: string): Range {
  const [address, bits, extra] = range.split('/');
  if (extra !== undefined || address === undefined) throw new Error('not a range');
  const isFourPart = ipaddr.IPv4.isValidFourPartDecimal(address);
  if (!isFourPart && !ipaddr.IPv6.isValid(address)) throw new Error('not an address');
  if (bits === undefined) return [ipaddr.parse(address), isFourPart ? 32 : 128];
  return ipaddr.parseCIDR(range);
}

function parseClient(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!ipaddr.isValid(address)) return null;
  // `::ffff:203.0.113.7` (a dual-stack socket's IPv4 client) is matched as 203.0.113.7.
  return ipaddr.process(address);
}
