import type { UpstreamHttpResponse } from './http-client';
import { UpstreamError, type UpstreamErrorClassifier } from './upstream-error';

/** Error bodies are read up to this size: enough for any envelope, bounded against hostile upstreams. */
export const ERROR_BODY_LIMIT_BYTES = 64 * 1024;

/** Reads at most `limitBytes` of a body as UTF-8; a longer body is cut and its connection closed. */
export async function readLimitedBody(
  body: AsyncIterable<Buffer>,
  limitBytes: number = ERROR_BODY_LIMIT_BYTES,
): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    const room = limitBytes - length;
    chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    length += Math.min(chunk.length, room);
    if (length >= limitBytes) break;
  }
  return Buffer.concat(chunks, length).toString('utf8');
}

/** Turns a non-2xx upstream answer into the UpstreamError its adapter's classifier assigns. */
export async function upstreamErrorFromResponse(
  response: UpstreamHttpResponse,
  classify: UpstreamErrorClassifier,
): Promise<UpstreamError> {
  let body = '';
  try {
    body = await readLimitedBody(response.body);
  } catch (error) {
    // The status alone still classifies an answer whose body broke off; aborts propagate.
    if (!(error instanceof UpstreamError)) throw error;
  }
  return new UpstreamError(classify(response.status, body, response.headers));
}

/** A 2xx answer whose body is not the JSON object the wire promises: the upstream is misbehaving. */
export function malformedAnswerError(httpStatus: number): UpstreamError {
  return new UpstreamError({
    kind: 'overload',
    retryable: true,
    httpStatus,
    message: 'upstream answered with a body that is not a JSON object',
  });
}

/** A stream event whose data is not a JSON object. */
export function malformedStreamEventError(): UpstreamError {
  return new UpstreamError({
    kind: 'overload',
    retryable: true,
    message: 'upstream sent a malformed stream event',
  });
}
