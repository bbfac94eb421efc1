/** The path of a request URL, without its query. */
export function pathOfUrl(url: string): string {
  const queryStart = url.indexOf('?');
  return queryStart < 0 ? url : url.slice(0, queryStart);
}

/** The query of a request URL as sent (undecoded, unsorted), without the `?`; empty when it has none. */
export function rawQueryOfUrl(url: string): string {
  const queryStart = url.indexOf('?');
  return queryStart < 0 ? '' : url.slice(queryStart + 1);
}
