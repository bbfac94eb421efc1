import {
  isSuccessStatus,
  joinBaseUrl,
  malformedAnswerError,
  parseJsonObject,
  postForJsonObject,
  upstreamErrorFromResponse,
  type AdapterContext,
  type JsonObject,
  type PlainKeyCredentials,
} from '@gateway/providers-core';
import { classifyAlphaError } from './alpha-error.classifier';

export type AlphaContext = AdapterContext<PlainKeyCredentials>;

/** `{base}/ent/v2{path}`: every alpha endpoint lives under `/ent/v2` (upstreams.md §3.2). */
export function alphaUrl(baseUrl: string, path: string): string {
  return joinBaseUrl(baseUrl, `/ent/v2${path}`);
}

/** §3.1: the literal word `Token`, not `Bearer`. */
export function alphaHeaders(apiKey: string): Record<string, string> {
  return { authorization: `Token ${apiKey}`, 'content-type': 'application/json' };
}

/** One POST whose 2xx answer is a JSON object; an error answer becomes the UpstreamError of §3.6. */
export async function postAlpha(context: AlphaContext, path: string, body: unknown): Promise<JsonObject> {
  const { payload } = await postForJsonObject(
    context,
    {
      url: alphaUrl(context.channel.baseUrl, path),
      headers: alphaHeaders(context.channel.credentials.apiKey),
      body: JSON.stringify(body),
    },
    classifyAlphaError,
  );
  return payload;
}

/** One GET whose 2xx answer is a JSON object, likewise. */
export async function getAlpha(context: AlphaContext, path: string): Promise<JsonObject> {
  const response = await context.http.request({
    method: 'GET',
    url: alphaUrl(context.channel.baseUrl, path),
    headers: { authorization: `Token ${context.channel.credentials.apiKey}` },
    signal: context.signal,
    headersTimeoutMs: context.headersTimeoutMs,
  });
  if (!isSuccessStatus(response.status)) throw await upstreamErrorFromResponse(response, classifyAlphaError);
  const payload = parseJsonObject(await response.text());
  if (!payload) throw malformedAnswerError(response.status);
  return payload;
}
