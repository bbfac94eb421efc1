import { joinBaseUrl, type TextCall } from '@gateway/providers-core';

export type KappaMethod = 'generateContent' | 'streamGenerateContent';

/**
 * `{base}/v1beta/models/{model}:{method}`; streams always ask for SSE (`alt=sse`) whatever the client
 * asked for: the gateway frames the stream for its client itself.
 */
export function kappaModelUrl(baseUrl: string, upstreamModel: string, method: KappaMethod): string {
  const path = `/v1beta/models/${encodeURIComponent(upstreamModel)}:${method}`;
  return joinBaseUrl(baseUrl, method === 'streamGenerateContent' ? `${path}?alt=sse` : path);
}

export function kappaHeaders(apiKey: string): Record<string, string> {
  return { 'content-type': 'application/json', 'x-vendor-api-key': apiKey };
}

/** The model travels in the path, so the client's own bytes are always the right body when present. */
export function toKappaRequestBody(call: TextCall): Buffer | string {
  return call.rawBody ?? JSON.stringify(call.request);
}
