import { isJsonObject, joinBaseUrl, type TextCall } from '@gateway/providers-core';

export function compatChatUrl(baseUrl: string): string {
  return joinBaseUrl(baseUrl, '/v1/chat/completions');
}

export function compatHeaders(apiKey: string): Record<string, string> {
  return { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
}

function asksForStreamUsage(request: Record<string, unknown>): boolean {
  return isJsonObject(request.stream_options) && request.stream_options.include_usage === true;
}

/** The member a streamed request needs so that the upstream sends the usage chunk billing reads. */
const STREAM_USAGE_MEMBER = Buffer.from(',"stream_options":{"include_usage":true}}');

const isJsonWhitespace = (byte: number): boolean =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * The client's bytes with the stream-usage member spliced in before the object's closing brace, so
 * that a streamed request which only lacks it is not parsed back into text. The bytes are those the
 * request was parsed from, an object that holds at least its model, so a member always precedes the
 * brace; undefined (the caller serialises the request) only if they do not end in one.
 */
function withStreamUsageMember(rawBody: Buffer): Buffer | undefined {
  let close = rawBody.length - 1;
  while (close >= 0 && isJsonWhitespace(rawBody[close])) close -= 1;
  return rawBody[close] === 0x7d
    ? Buffer.concat([rawBody.subarray(0, close), STREAM_USAGE_MEMBER])
    : undefined;
}

// perf-machinery: stream-usage-splice (docs/performance-machinery.md)
/**
 * The chat completions body. The client's bytes go out untouched unless the wire needs a change: the
 * channel maps the model to another id, or a stream lacks the usage chunk that billing needs (the
 * gateway strips that chunk again for clients that did not ask for it). A stream that only lacks it,
 * without stream_options of its own, gets it spliced into the client's bytes.
 */
export function toCompatChatBody(call: TextCall, streaming: boolean): Buffer | string {
  const { request, upstreamModel, rawBody } = call;
  const modelMatches = request.model === upstreamModel;
  if (!streaming) {
    return rawBody && modelMatches ? rawBody : JSON.stringify({ ...request, model: upstreamModel });
  }
  if (rawBody && modelMatches && request.stream === true) {
    if (asksForStreamUsage(request)) return rawBody;
    const spliced = request.stream_options === undefined ? withStreamUsageMember(rawBody) : undefined;
    if (spliced) return spliced;
  }
  const streamOptions = isJsonObject(request.stream_options) ? request.stream_options : {};
  return JSON.stringify({
    ...request,
    model: upstreamModel,
    stream: true,
    stream_options: { ...streamOptions, include_usage: true },
  });
}
