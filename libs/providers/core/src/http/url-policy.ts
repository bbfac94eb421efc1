import { isIP } from 'node:net';
import { isRefusedAddress, type PrivateHostAllowList } from './address-policy';
import { SafeFetchError } from './safe-fetch-error';

/**
 * The one URL policy (docs/urls.md), shared by the SSRF-safe fetcher (a URL the gateway fetches
 * itself, checked at every hop against every address its host resolves to) and checkForwardedUrl (a
 * URL the gateway hands to an upstream, which resolves and fetches it on its own network).
 */

/** An address a URL names literally, as the WHATWG parser normalised it (`0x7f.1` is `127.0.0.1`). */
export interface LiteralAddress {
  address: string;
  family: 4 | 6;
}

/** An absolute http(s) URL without credentials; `base` resolves a redirect's relative Location. */
export function parseHttpUrl(location: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(location, base);
  } catch {
    throw new SafeFetchError('invalid_url', 'not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SafeFetchError('invalid_url', `scheme ${url.protocol} is not allowed`);
  }
  if (url.username || url.password) {
    throw new SafeFetchError('invalid_url', 'URLs with credentials are not allowed');
  }
  return url;
}

/** The IP address the URL's host is, undefined for a name. */
export function literalAddressOf(url: URL): LiteralAddress | undefined {
  const bareHost = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const family = isIP(bareHost);
  return family === 4 || family === 6 ? { address: bareHost, family } : undefined;
}

/** Refuses an address in a refused range unless the operator's allow-list names the URL's host or the address. */
export function assertAllowedAddress(url: URL, address: string, allowList: PrivateHostAllowList): void {
  if (isRefusedAddress(address) && !allowList.allows(url, address)) {
    throw new SafeFetchError('forbidden_address', `${url.host} is at a non-public address`);
  }
}

/**
 * What a forwarded URL's text must be before it is parsed: the scheme and `//` spelled out, and no
 * whitespace, control character or backslash, which parsers disagree on (`http:\\127.0.0.1`, a tab
 * inside the host). The upstream then reads the host the gateway checked.
 */
const PLAIN_HTTP_URL = /^https?:\/\/[^\\]*$/i;
/** Whitespace and control characters: C0, space, DEL (a parser strips or keeps them, another refuses). */
const UNPRINTABLE = /[\p{Cc}\s]/u;
/** The authority of a URL's text: what lies between `//` and the first `/`, `?` or `#`. */
const AUTHORITY = /^[a-z]+:\/\/([^/?#]*)/i;
/** `localhost` and its subdomains are loopback by definition (RFC 6761), whoever resolves them. */
const LOOPBACK_NAME = /(?:^|\.)localhost\.?$/;

/**
 * Checks a URL the gateway hands to an upstream, which fetches it (an input image, a reference clip, an
 * audio track, a watermark …): an http(s) URL whose text parsers read alike, without credentials
 * (an upstream would send them on, and `user@host` is the usual disguise of a host), naming no
 * literal address in a refused range, in any of its spellings (`2130706433`, `0x7f.1`, `[::ffff:…]`),
 * nor `localhost`, unless the operator's allow-list (SSRF_ALLOW_HOSTS) names it. Another host name is
 * the upstream's to resolve: it is not looked up here. Throws SafeFetchError (`invalid_url`,
 * `forbidden_address`).
 */
export function checkForwardedUrl(location: string, allowList: PrivateHostAllowList): URL {
  if (!PLAIN_HTTP_URL.test(location) || UNPRINTABLE.test(location)) {
    throw new SafeFetchError(
      'invalid_url',
      'not an http(s) URL written plainly (scheme://host…, no spaces, control characters or backslashes)',
    );
  }
  if (AUTHORITY.exec(location)?.[1].includes('@')) {
    throw new SafeFetchError('invalid_url', 'URLs with credentials are not allowed');
  }
  const url = parseHttpUrl(location);
  const literal = literalAddressOf(url);
  if (literal) assertAllowedAddress(url, literal.address, allowList);
  else if (LOOPBACK_NAME.test(url.hostname)) assertAllowedAddress(url, '127.0.0.1', allowList);
  return url;
}
