import {
  classOfHttpStatus,
  failureOfHttpAnswer,
  parseJsonObject,
  type UpstreamClassification,
  type UpstreamFailure,
} from '@gateway/providers-core';

const BAD_REQUEST: UpstreamClassification = ['bad_request', false];
const RATE_LIMIT: UpstreamClassification = ['rate_limit', true];
const CONTENT_POLICY: UpstreamClassification = ['content_policy', false];

/**
 * The `reason`s of upstreams.md §3.6 and their class; the same words arrive as a failed task's
 * `err_code`. A cancellation (`UserCancelled`, `Canceled`) is no fault of the channel: it is read as
 * a request that will not succeed again, and the poll tells it apart by its code.
 */
const CLASS_OF_REASON: ReadonlyMap<string, UpstreamClassification> = new Map(
  Object.entries({
    BadRequest: BAD_REQUEST,
    FieldLacking: BAD_REQUEST,
    FieldUnwanted: BAD_REQUEST,
    FieldItemCountOutOfRange: BAD_REQUEST,
    FieldInvalid: BAD_REQUEST,
    PageSizeOutOfRange: BAD_REQUEST,
    ImageDownloadFailure: BAD_REQUEST,
    ImageFormatInvalid: BAD_REQUEST,
    ModelUnavailable: BAD_REQUEST,
    TaskNotFound: BAD_REQUEST,
    CreationNotFound: BAD_REQUEST,
    NotFound: BAD_REQUEST,
    Conflict: BAD_REQUEST,
    UserCancelled: BAD_REQUEST,
    Canceled: BAD_REQUEST,
    OperationInProcess: RATE_LIMIT,
    QuotaExceeded: RATE_LIMIT,
    TooManyRequests: RATE_LIMIT,
    SystemThrottling: RATE_LIMIT,
    TaskPromptPolicyViolation: CONTENT_POLICY,
    AuditSubmitIllegal: CONTENT_POLICY,
    CreationPolicyViolation: CONTENT_POLICY,
    CreditInsufficient: ['insufficient_balance', false],
    Unauthorized: ['auth', false],
    Forbidden: ['auth', false],
    InternalServiceFailure: ['overload', true],
  } satisfies Record<string, UpstreamClassification>),
);

/** The err_codes of a task that ended because someone cancelled it (§3.5). */
export const ALPHA_CANCELLED_CODES: ReadonlySet<string> = new Set(['UserCancelled', 'Canceled']);

/**
 * Maps an alpha error answer `{code, reason, message, metadata}` (upstreams.md §3.6) to one failure:
 * the reason decides where it is known, else the HTTP status.
 */
export function classifyAlphaError(
  status: number,
  body: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const envelope = parseJsonObject(body);
  const reason = typeof envelope?.reason === 'string' && envelope.reason !== '' ? envelope.reason : undefined;
  const message = typeof envelope?.message === 'string' ? envelope.message : undefined;
  const classification = (reason !== undefined && CLASS_OF_REASON.get(reason)) || classOfHttpStatus(status);
  return failureOfHttpAnswer(classification, { status, headers, message, upstreamCode: reason });
}

/** A failed task's `err_code` (§3.5), classified by the same table; no HTTP status belongs to it. */
export function alphaTaskFailure(errCode: string): UpstreamFailure {
  const [kind, retryable] = CLASS_OF_REASON.get(errCode) ?? ['overload', true];
  const message = ALPHA_CANCELLED_CODES.has(errCode)
    ? 'the upstream task was cancelled'
    : `the upstream task failed${errCode ? ` (${errCode})` : ''}`;
  return errCode ? { kind, retryable, message, upstreamCode: errCode } : { kind, retryable, message };
}
