import type { AdapterContext } from '../adapter-context';
import type { UpstreamHttpRequest } from '../http-client';
import { malformedAnswerError, upstreamErrorFromResponse } from '../adapter-error.util';
import { isSuccessStatus } from './upstream-url.util';
import { parseJsonObject } from '../json-object.util';
import { createEventStream, type EventStream } from '../stream/event-stream.util';
import { readServerSentEventReads } from '../stream/sse-reader';
import type { UpstreamErrorClassifier } from '../upstream-error';
import { linkAbortController } from './linked-abort.util';

/** What differs between two JSON-over-HTTP wires for one call: where, with which headers, which bytes. */
export interface UpstreamPost {
  url: string;
  headers: Record<string, string>;
  body: Buffer | string;
}

export interface JsonObjectAnswer {
  body: Buffer;
  payload: Record<string, unknown>;
}

/**
 * One POST whose 2xx answer is a JSON object; any other answer becomes the UpstreamError the wire's
 * classifier assigns. Shared by every synchronous adapter so they differ only in their wire details.
 */
export function postForJsonObject(
  context: AdapterContext,
  post: UpstreamPost,
  classify: UpstreamErrorClassifier,
): Promise<JsonObjectAnswer> {
  // Not async: the text path's every call, where another promise layer shows in the profile.
  return requestForJsonObject(context, 'POST', post.url, post.headers, post.body, classify);
}

/** One GET (a task query, a file lookup) whose 2xx answer is a JSON object; see postForJsonObject. */
export function getForJsonObject(
  context: AdapterContext,
  get: Omit<UpstreamPost, 'body'>,
  classify: UpstreamErrorClassifier,
): Promise<JsonObjectAnswer> {
  return requestForJsonObject(context, 'GET', get.url, get.headers, undefined, classify);
}

async function requestForJsonObject(
  context: AdapterContext,
  method: UpstreamHttpRequest['method'],
  url: string,
  headers: Record<string, string>,
  requestBody: UpstreamHttpRequest['body'],
  classify: UpstreamErrorClassifier,
): Promise<JsonObjectAnswer> {
  const response = await context.http.request({
    method,
    url,
    headers,
    body: requestBody,
    signal: context.signal,
    headersTimeoutMs: context.headersTimeoutMs,
  });
  if (!isSuccessStatus(response.status)) throw await upstreamErrorFromResponse(response, classify);
  const body = await response.bytes();
  const payload = parseJsonObject(body.toString('utf8'));
  if (!payload) throw malformedAnswerError(response.status);
  return { body, payload };
}

/**
 * One POST answered with Server-Sent Events. Resolves once the upstream accepted (2xx headers); the
 * stream owns an abort controller linked to the call's signal, so abort() closes the connection.
 */
export async function postForEventStream<Event>(
  context: AdapterContext,
  post: UpstreamPost,
  classify: UpstreamErrorClassifier,
  toEvent: (data: string) => Event | undefined,
): Promise<EventStream<Event>> {
  const abortController = linkAbortController(context.signal);
  try {
    const response = await context.http.request({
      method: 'POST',
      ...post,
      signal: abortController.signal,
      headersTimeoutMs: context.headersTimeoutMs,
    });
    if (!isSuccessStatus(response.status)) throw await upstreamErrorFromResponse(response, classify);
    return createEventStream({
      reads: readServerSentEventReads(response.body),
      abortController,
      toEvent,
    });
  } catch (error) {
    abortController.unlink();
    throw error;
  }
}
