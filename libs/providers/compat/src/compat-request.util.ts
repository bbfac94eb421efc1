import { isJsonObject, joinBaseUrl, type TextCall } from '@gateway/providers-core';

export function compatChatUrl(baseUrl: string): string {
  return joinBaseUrl(baseUrl, '/v1/chat/completions');
}

export function compatHeaders(secret: string): Record<string, string> {
  return { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
}

function asksForStreamUsage(request: Record<string, unknown>): boolean {
  return isJsonObject(request.stream_options) && request.stream_options.include_usage === true;
}

/**
 * The chat completions body. The client's bytes go out untouched unless the wire needs a change: the
 * channel maps the model to another id, or a stream lacks the usage chunk that billing needs (the
 * gateway strips that chunk again for clients that did not ask for it).
 */
export function toCompatChatBody(call: TextCall, streaming: boolean): Buffer | string {
  const { request, upstreamModel, rawBody } = call;
  const modelMatches = request.model === upstreamModel;
  if (!streaming) {
    return rawBody && modelMatches ? rawBody : JSON.stringify({ ...request, model: upstreamModel });
  }
  if (rawBody && modelMatches && request.stream === true && asksForStreamUsage(request)) return rawBody;
  const streamOptions = isJsonObject(request.stream_options) ? request.stream_options : {};
  return JSON.stringify({
    ...request,
    model: upstreamModel,
    stream: true,
    stream_options: { ...streamOptions, include_usage: true },
  });
}
