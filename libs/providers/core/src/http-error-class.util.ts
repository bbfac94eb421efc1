import { systemClock } from './clock';
import { retryAfterMsFrom, type UpstreamErrorKind, type UpstreamFailure } from './upstream-error';

/** A failure's kind and whether the same request may succeed on a retry, as a wire's code table lists them. */
export type UpstreamClassification = readonly [kind: UpstreamErrorKind, retryable: boolean];

/**
 * The class an HTTP status gives an error answer whose body names no code the wire's table knows (a
 * proxy's page, a bare 5xx): 401 and 403 blame the credentials, 429 is a rate limit, any other 4xx
 * blames the request. A 5xx, or a status outside the error range that still reached a classifier, is
 * the upstream's health: retryable, possibly elsewhere.
 */
export function classOfHttpStatus(status: number): UpstreamClassification {
  if (status === 401 || status === 403) return ['auth', false];
  if (status === 429) return ['rate_limit', true];
  if (status >= 500 || status < 400) return ['overload', true];
  return ['bad_request', false];
}

/** What a classifier read from an HTTP error answer, besides the class it chose. */
export interface HttpErrorAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The upstream's own message; without one the failure names the status. */
  message?: string;
  upstreamCode?: string;
}

/**
 * The failure of an HTTP error answer in the class its classifier chose. Only a rate limit carries the
 * answer's Retry-After: no other class waits for the upstream before trying again.
 */
export function failureOfHttpAnswer(
  [kind, retryable]: UpstreamClassification,
  answer: HttpErrorAnswer,
): UpstreamFailure {
  const failure: UpstreamFailure = {
    kind,
    retryable,
    httpStatus: answer.status,
    message: answer.message ?? `upstream answered HTTP ${answer.status}`,
  };
  if (answer.upstreamCode !== undefined) failure.upstreamCode = answer.upstreamCode;
  if (kind === 'rate_limit') {
    const retryAfterMs = retryAfterMsFrom(answer.headers['retry-after'], systemClock.now());
    if (retryAfterMs !== undefined) failure.retryAfterMs = retryAfterMs;
  }
  return failure;
}
