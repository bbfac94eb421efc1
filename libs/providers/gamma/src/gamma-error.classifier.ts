import {
  classOfHttpStatus,
  failureOfHttpAnswer,
  isJsonObject,
  parseJsonObject,
  type UpstreamClassification,
  type UpstreamFailure,
} from '@gateway/providers-core';

/**
 * The `Error.Code`s of upstreams.md §5.6. Codes are dotted: a code not listed here whole is
 * classified by its category, the part before the first dot (`AuthFailure.InvalidAuthorization` →
 * `AuthFailure`).
 */
const CLASS_OF_CODE: Readonly<Record<string, UpstreamClassification>> = {
  AuthFailure: ['auth', false],
  UnauthorizedOperation: ['auth', false],
  InvalidParameter: ['bad_request', false],
  InvalidParameterValue: ['bad_request', false],
  MissingParameter: ['bad_request', false],
  ResourceNotFound: ['bad_request', false],
  RequestLimitExceeded: ['rate_limit', true],
  LimitExceeded: ['rate_limit', true],
  FailedOperation: ['bad_request', false],
  InternalError: ['overload', true],
  'FailedOperation.InsufficientBalance': ['insufficient_balance', false],
  'InvalidParameterValue.ContentAudit': ['content_policy', false],
};

/**
 * `LimitExceeded` is a quota or concurrency limit: §5.6 asks for a long backoff, and the wire sends
 * no Retry-After, so the hint is the gateway's own.
 */
export const GAMMA_QUOTA_BACKOFF_MS = 30_000;

/** A `Response.Error`'s code and message, read tolerantly. */
export interface GammaError {
  code?: string;
  message?: string;
}

/**
 * One `Response.Error` (§5.3) as a failure. Every gamma answer is HTTP 200, errors included, so the
 * code alone decides; an unknown category is a `bad_request` (the upstream refused this request, and
 * nothing says another try would differ).
 */
export function gammaFailureOf(error: GammaError, httpStatus = 200): UpstreamFailure {
  const code = error.code ?? '';
  const [kind, retryable] = gammaClassOf(code) ?? (['bad_request', false] as const);
  const failure: UpstreamFailure = {
    kind,
    retryable,
    httpStatus,
    message: error.message || `the upstream answered ${code || 'an error without a code'}`,
  };
  if (code) failure.upstreamCode = code;
  if (code.split('.')[0] === 'LimitExceeded') failure.retryAfterMs = GAMMA_QUOTA_BACKOFF_MS;
  return failure;
}

/** The class of a code of §5.6, whole or by its category; undefined for a code of no known category. */
export function gammaClassOf(code: string): UpstreamClassification | undefined {
  if (Object.hasOwn(CLASS_OF_CODE, code)) return CLASS_OF_CODE[code];
  const category = code.split('.')[0];
  return Object.hasOwn(CLASS_OF_CODE, category) ? CLASS_OF_CODE[category] : undefined;
}

/** `Response.Error` of a parsed answer, when it carries one. */
export function gammaErrorOf(payload: Record<string, unknown>): GammaError | undefined {
  const response = isJsonObject(payload.Response) ? payload.Response : undefined;
  if (!response || !isJsonObject(response.Error)) return undefined;
  const { Code, Message } = response.Error;
  return {
    code: typeof Code === 'string' ? Code : undefined,
    message: typeof Message === 'string' ? Message : undefined,
  };
}

/**
 * A non-2xx answer, which the wire itself never gives (a proxy in front of it may): the envelope's
 * code when the body has one, else the HTTP status.
 */
export function classifyGammaError(
  status: number,
  body: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const payload = parseJsonObject(body);
  const error = payload ? gammaErrorOf(payload) : undefined;
  if (error?.code) return gammaFailureOf(error, status);
  return failureOfHttpAnswer(classOfHttpStatus(status), { status, headers });
}
