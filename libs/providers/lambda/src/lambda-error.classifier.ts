import {
  classOfHttpStatus,
  failureOfHttpAnswer,
  parseJsonObject,
  type UpstreamClassification,
  type UpstreamFailure,
} from '@gateway/providers-core';

/** §9.5: the class follows the HTTP status (402 by project convention ‡). */
function classOfStatus(status: number): UpstreamClassification {
  return status === 402 ? ['insufficient_balance', false] : classOfHttpStatus(status);
}

/**
 * Maps a lambda error answer `{code, message, data}` (upstreams.md §9.5) to one failure by its HTTP
 * status. A 200 whose `code` is not `success` is the upstream refusing the request: a bad request.
 */
export function classifyLambdaError(
  status: number,
  body: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const envelope = parseJsonObject(body);
  const code = typeof envelope?.code === 'string' && envelope.code !== '' ? envelope.code : undefined;
  const message =
    typeof envelope?.message === 'string' && envelope.message !== '' ? envelope.message : undefined;
  return failureOfHttpAnswer(status === 200 ? ['bad_request', false] : classOfStatus(status), {
    status,
    headers,
    message: message ?? `upstream answered HTTP ${status}${code ? ` (${code})` : ''}`,
    upstreamCode: code,
  });
}
