import {
  isJsonObject,
  parseJsonObject,
  retryAfterMsFrom,
  systemClock,
  type UpstreamFailure,
} from '@gateway/providers-core';

const CONTENT_POLICY_CODES: ReadonlySet<string> = new Set(['content_policy_violation', 'moderation_blocked']);
const INSUFFICIENT_QUOTA = 'insufficient_quota';

/** HTTP statuses the known codes come with, for error events that arrive inside a started stream. */
const HTTP_STATUS_OF_CODE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  content_policy_violation: 400,
  moderation_blocked: 400,
  invalid_api_key: 401,
  model_not_found: 404,
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  server_error: 500,
  server_is_overloaded: 503,
};

interface CompatErrorEnvelope {
  message?: string;
  type?: string;
  code?: string;
}

/** Reads `{"error":{"message","type","param","code"}}` (§2.5) tolerantly; relays vary. */
function compatErrorEnvelopeOf(error: unknown): CompatErrorEnvelope {
  if (!isJsonObject(error)) return {};
  const envelope: CompatErrorEnvelope = {};
  if (typeof error.message === 'string') envelope.message = error.message;
  if (typeof error.type === 'string') envelope.type = error.type;
  if (typeof error.code === 'string') envelope.code = error.code;
  return envelope;
}

/**
 * Maps an OpenAI-style error answer to one failure kind (upstreams.md §2.5). The codes that change the
 * class are checked first; any other code (relays invent their own) follows the HTTP status.
 */
export function classifyCompatError(
  status: number,
  body: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const envelope = compatErrorEnvelopeOf(parseJsonObject(body)?.error);
  const failure = (kind: UpstreamFailure['kind'], retryable: boolean): UpstreamFailure => ({
    kind,
    retryable,
    httpStatus: status,
    message: envelope.message ?? `upstream answered HTTP ${status}`,
    upstreamCode: envelope.code ?? envelope.type,
  });
  if (envelope.code === INSUFFICIENT_QUOTA || envelope.type === INSUFFICIENT_QUOTA) {
    return failure('insufficient_balance', false);
  }
  if (
    status >= 400 &&
    status < 500 &&
    envelope.code !== undefined &&
    CONTENT_POLICY_CODES.has(envelope.code)
  ) {
    return failure('content_policy', false);
  }
  if (status === 401 || status === 403) return failure('auth', false);
  // Relays answer an empty balance with 402 Payment Required.
  if (status === 402) return failure('insufficient_balance', false);
  if (status === 429) {
    return {
      ...failure('rate_limit', true),
      retryAfterMs: retryAfterMsFrom(headers['retry-after'], systemClock.now()),
    };
  }
  if (status >= 500) return failure('overload', true);
  return failure('bad_request', false);
}

/**
 * Classifies a `data: {"error":…}` event inside a started stream (§2.2). It has no HTTP status of its
 * own: a numeric code stands in for one, else the status its known code comes with, else 500.
 */
export function classifyCompatStreamError(error: unknown, json: string): UpstreamFailure {
  const code = isJsonObject(error) ? error.code : undefined;
  const type = isJsonObject(error) && typeof error.type === 'string' ? error.type : '';
  let status = 500;
  if (typeof code === 'number' && code >= 400 && code <= 599) status = code;
  else if (typeof code === 'string' && HTTP_STATUS_OF_CODE[code]) status = HTTP_STATUS_OF_CODE[code];
  else if (HTTP_STATUS_OF_CODE[type]) status = HTTP_STATUS_OF_CODE[type];
  return classifyCompatError(status, json, {});
}
