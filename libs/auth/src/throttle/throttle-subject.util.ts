import { isIPv6 } from 'node:net';

const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/**
 * What failures are counted against for a client address: the IPv4 address itself, or the /64
 * network of an IPv6 address. A single IPv6 subscriber usually holds a whole /64, so counting single
 * addresses would let it step past the limit with every request. An IPv4-mapped IPv6 address counts
 * as its IPv4 address.
 */
export function throttleSubjectOf(address: string): string {
  const mapped = IPV4_MAPPED.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
}

/**
 * The eight 16-bit groups of an IPv6 address, lower-case without leading zeros, the zone dropped and
 * `::` expanded. Written here because Node has no such parser and the one proxy-addr uses is not a
 * dependency of ours; a trailing dotted IPv4 part counts as the two groups it stands for.
 */
function ipv6Groups(address: string): string[] {
  const [head, tail] = address.split('%')[0].toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const written = [...headGroups, ...tailGroups].reduce(
    (count, group) => count + (group.includes('.') ? 2 : 1),
    0,
  );
  const zeros = tail === undefined ? [] : Array<string>(8 - written).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].map((group) => group.replace(/^0+(?=.)/, ''));
}
