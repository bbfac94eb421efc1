/** A request URL with its `/@<directives>` base-URL prefix taken off. */
export interface PrefixedUrl {
  /** The URL the wire routes see, e.g. `/v1/chat/completions?x=1`. */
  url: string;
  /** The raw directive text of the prefix, when there was one. */
  directives?: string;
}

/**
 * A channel whose base URL is `http://host:port/@error=overload` sends every request to
 * `/@error=overload/<normal path>`; this splits the two so the routes never see the prefix.
 */
export function splitDirectivePrefix(url: string): PrefixedUrl {
  if (!url.startsWith('/@')) return { url };
  let end = 2;
  while (end < url.length && url[end] !== '/' && url[end] !== '?') end += 1;
  const rest = url.slice(end);
  return { url: rest.startsWith('/') ? rest : `/${rest}`, directives: url.slice(2, end) };
}
