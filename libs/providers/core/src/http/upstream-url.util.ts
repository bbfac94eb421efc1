/** `{base}{path}`; a channel's base URL is stored without trailing slash, but one slipping in is tolerated. */
export function joinBaseUrl(baseUrl: string, path: string): string {
  return baseUrl.endsWith('/') ? baseUrl.slice(0, -1) + path : baseUrl + path;
}

export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300;
}
