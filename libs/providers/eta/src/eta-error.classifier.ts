import {
  isJsonObject,
  parseJsonObject,
  retryAfterMsFrom,
  systemClock,
  type UpstreamFailure,
} from '@gateway/providers-core';

/**
 * Every moderation code of the data plane carries this (`InputTextSensitiveContentDetected`,
 * `OutputImageSensitiveContentDetected`, `SensitiveContentDetected.x` …), whatever its prefix.
 */
const SENSITIVE_CONTENT_MARKER = 'SensitiveContentDetected';
const ACCOUNT_OVERDUE = 'AccountOverdueError';
/** The one 429 that is the upstream's load, not the caller's rate. */
const SERVER_OVERLOADED = 'ServerOverloaded';

interface EtaErrorEnvelope {
  code?: string;
  message?: string;
}

/** Reads `{"error":{"code","message","param","type"}}` (upstreams.md §6.1) tolerantly. */
function etaErrorEnvelopeOf(error: unknown): EtaErrorEnvelope {
  if (!isJsonObject(error)) return {};
  const envelope: EtaErrorEnvelope = {};
  if (typeof error.code === 'string') envelope.code = error.code;
  if (typeof error.message === 'string') envelope.message = error.message;
  return envelope;
}

/** Whether a code (of the envelope or of one group item) is a moderation verdict. */
export function isEtaSensitiveContentCode(code: string | undefined): boolean {
  return code !== undefined && code.includes(SENSITIVE_CONTENT_MARKER);
}

/**
 * Maps an eta data-plane error answer to one failure kind (upstreams.md §6.1). The codes that change
 * the class within one status (moderation among the 400s, an overdue account among the 403s, an
 * overloaded server among the 429s) are checked first; anything else follows the HTTP status.
 */
export function classifyEtaError(
  status: number,
  body: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const envelope = etaErrorEnvelopeOf(parseJsonObject(body)?.error);
  const failure = (kind: UpstreamFailure['kind'], retryable: boolean): UpstreamFailure => ({
    kind,
    retryable,
    httpStatus: status,
    message: envelope.message ?? `upstream answered HTTP ${status}`,
    upstreamCode: envelope.code,
  });
  if (status >= 400 && status < 500 && isEtaSensitiveContentCode(envelope.code)) {
    return failure('content_policy', false);
  }
  if (envelope.code === ACCOUNT_OVERDUE) return failure('insufficient_balance', false);
  if (status === 401 || status === 403) return failure('auth', false);
  if (status === 429) {
    const retryAfterMs = retryAfterMsFrom(headers['retry-after'], systemClock.now());
    const kind = envelope.code === SERVER_OVERLOADED ? 'overload' : 'rate_limit';
    return { ...failure(kind, true), retryAfterMs };
  }
  if (status >= 500) return failure('overload', true);
  return failure('bad_request', false);
}
