import { joinBaseUrl } from '@gateway/providers-core';

/** `{base}/api/v3{path}`: every data-plane path lives under `/api/v3` (upstreams.md §6.1). */
export function etaDataPlaneUrl(baseUrl: string, path: string): string {
  return joinBaseUrl(baseUrl, `/api/v3${path}`);
}

export function etaHeaders(apiKey: string): Record<string, string> {
  return { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` };
}
