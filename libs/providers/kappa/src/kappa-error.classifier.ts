import {
  isJsonObject,
  parseJsonObject,
  retryAfterMsFrom,
  systemClock,
  type JsonObject,
  type UpstreamFailure,
} from '@gateway/providers-core';

/** HTTP statuses of the envelope's status strings, for error events that carry no numeric code. */
const HTTP_STATUS_OF_ENVELOPE_STATUS: Readonly<Record<string, number>> = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
};

interface KappaErrorEnvelope {
  message?: string;
  status?: string;
  reason?: string;
}

/**
 * Reads `{"error":{"code","message","status","details":[{"@type":"…ErrorInfo","reason"}]}}` (§1.8)
 * tolerantly: any part may be missing.
 */
function kappaErrorEnvelopeOf(error: unknown): KappaErrorEnvelope {
  if (!isJsonObject(error)) return {};
  const envelope: KappaErrorEnvelope = {};
  if (typeof error.message === 'string') envelope.message = error.message;
  if (typeof error.status === 'string') envelope.status = error.status;
  if (Array.isArray(error.details)) {
    const errorInfo = error.details.find(
      (detail): detail is JsonObject =>
        isJsonObject(detail) && typeof detail['@type'] === 'string' && detail['@type'].endsWith('ErrorInfo'),
    );
    if (errorInfo && typeof errorInfo.reason === 'string') envelope.reason = errorInfo.reason;
  }
  return envelope;
}

/** Maps a kappa error answer to one failure kind (upstreams.md §1.8). */
export function classifyKappaError(
  status: number,
  body: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const envelope = kappaErrorEnvelopeOf(parseJsonObject(body)?.error);
  const failure = (kind: UpstreamFailure['kind'], retryable: boolean): UpstreamFailure => ({
    kind,
    retryable,
    httpStatus: status,
    message: envelope.message ?? `upstream answered HTTP ${status}`,
    upstreamCode: envelope.reason ?? envelope.status,
  });
  // A wrong key is a 400, told apart from a bad request only by its reason.
  if (envelope.reason === 'API_KEY_INVALID') return failure('auth', false);
  if (envelope.status === 'FAILED_PRECONDITION') return failure('insufficient_balance', false);
  if (status === 401 || status === 403) return failure('auth', false);
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
 * Classifies the error envelope an SSE event carries once the stream has started (§1.6): its numeric
 * code stands in for the HTTP status, else its status string does.
 */
export function classifyKappaStreamError(error: unknown, json: string): UpstreamFailure {
  const code = isJsonObject(error) ? error.code : undefined;
  const statusText = isJsonObject(error) && typeof error.status === 'string' ? error.status : '';
  const status =
    typeof code === 'number' && code >= 400 && code <= 599
      ? code
      : (HTTP_STATUS_OF_ENVELOPE_STATUS[statusText] ?? 500);
  return classifyKappaError(status, json, {});
}
