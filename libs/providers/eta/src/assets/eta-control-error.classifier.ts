import {
  isJsonObject,
  parseJsonObject,
  retryAfterMsFrom,
  systemClock,
  type UpstreamFailure,
} from '@gateway/providers-core';

/** `ResponseMetadata.Error.Code`s that are the platform's load or a passing fault, not the request's. */
const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  'InternalError',
  'InternalServiceError',
  'ServiceUnavailable',
]);
const THROTTLED_CODES: ReadonlySet<string> = new Set([
  'RequestLimitExceeded',
  'Throttling',
  'TooManyRequests',
]);
const SIGNATURE_CODES: ReadonlySet<string> = new Set([
  'SignatureDoesNotMatch',
  'InvalidAccessKey',
  'InvalidAuthorization',
  'AccessDenied',
]);

/** `ResponseMetadata.Error` of the control plane's envelope (upstreams.md §6.5), read tolerantly. */
export function etaControlErrorOf(payload: unknown): { code?: string; message?: string } | undefined {
  const metadata = isJsonObject(payload) ? payload.ResponseMetadata : undefined;
  const error = isJsonObject(metadata) ? metadata.Error : undefined;
  if (!isJsonObject(error)) return undefined;
  return {
    ...(typeof error.Code === 'string' ? { code: error.Code } : {}),
    ...(typeof error.Message === 'string' ? { message: error.Message } : {}),
  };
}

/**
 * Maps a control-plane error answer to one failure. §6.5 shows the envelope but no code table: the
 * code decides where it says the signature, the rate or the platform's health, and otherwise the
 * HTTP status does, as §0's classes go (an unknown or foreign id is the request's fault). A 2xx
 * answer carrying `ResponseMetadata.Error` is classified here too, by its code.
 */
export function classifyEtaControlError(
  status: number,
  body: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const error = etaControlErrorOf(parseJsonObject(body)) ?? {};
  const failure = (kind: UpstreamFailure['kind'], retryable: boolean): UpstreamFailure => ({
    kind,
    retryable,
    httpStatus: status,
    message: error.message ?? `the asset control plane answered HTTP ${status}`,
    upstreamCode: error.code,
  });
  const code = error.code ?? '';
  if (SIGNATURE_CODES.has(code) || status === 401 || status === 403) return failure('auth', false);
  if (THROTTLED_CODES.has(code) || status === 429) {
    return {
      ...failure('rate_limit', true),
      retryAfterMs: retryAfterMsFrom(headers['retry-after'], systemClock.now()),
    };
  }
  if (TRANSIENT_CODES.has(code) || status >= 500) return failure('overload', true);
  return failure('bad_request', false);
}
