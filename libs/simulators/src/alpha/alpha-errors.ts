import { randomAlphanumeric } from '../random-id.util';
import { ScriptedError, WireError, retryAfterHeader } from '../scripted-error';

/** The reasons of upstreams.md §3.6 with their HTTP status and the message the simulator writes. */
const ALPHA_ERRORS: Readonly<Record<string, readonly [status: number, message: string]>> = {
  BadRequest: [400, 'bad request'],
  FieldLacking: [400, 'a required field is missing'],
  FieldUnwanted: [400, 'a field is not accepted here'],
  FieldItemCountOutOfRange: [400, 'a list has too many or too few items'],
  FieldInvalid: [400, 'a field is invalid'],
  PageSizeOutOfRange: [400, 'the page size is out of range'],
  ImageDownloadFailure: [400, 'an image could not be downloaded'],
  ImageFormatInvalid: [400, 'an image format is invalid'],
  ModelUnavailable: [400, 'the model is not available'],
  OperationInProcess: [400, 'an operation is in process'],
  TaskPromptPolicyViolation: [400, 'the prompt violates the content policy'],
  AuditSubmitIllegal: [400, 'the submission did not pass the audit'],
  CreationPolicyViolation: [400, 'the creation violates the content policy'],
  CreditInsufficient: [400, 'insufficient credits'],
  UserCancelled: [400, 'the task was cancelled'],
  Unauthorized: [401, 'Unauthorized'],
  Forbidden: [403, 'Forbidden'],
  TaskNotFound: [404, 'task not found'],
  CreationNotFound: [404, 'creation not found'],
  NotFound: [404, 'not found'],
  Conflict: [409, 'conflict'],
  QuotaExceeded: [429, 'the concurrency quota is exceeded'],
  TooManyRequests: [429, 'too many requests'],
  SystemThrottling: [429, 'the system is throttling requests'],
  Canceled: [499, 'the request was cancelled'],
  InternalServiceFailure: [500, 'internal service failure'],
};

const TRACE_ID_LENGTH = 32;

/**
 * `{"code","reason","message","metadata":{"trace_id"}}` with the reason's status (§3.6); `message`
 * replaces the table's (a validation failure names its rule there), `status` the table's status.
 */
export function alphaError(reason: string, message?: string, status?: number): WireError {
  const [tableStatus, tableMessage] = ALPHA_ERRORS[reason] ?? [400, 'error'];
  const code = status ?? tableStatus;
  return {
    status: code,
    body: {
      code,
      reason,
      message: message ?? tableMessage,
      metadata: { trace_id: randomAlphanumeric(TRACE_ID_LENGTH).toLowerCase() },
    },
  };
}

export function isAlphaReason(value: string): boolean {
  return Object.hasOwn(ALPHA_ERRORS, value);
}

/**
 * The reason a scripted class stands for, on a call or as a failed task's `err_code`; `code=` picks
 * any reason of the table instead (its status follows).
 */
export function alphaScriptedReason(scripted: ScriptedError, stage: 'submit' | 'query' | 'task'): string {
  if (scripted.code !== undefined && isAlphaReason(scripted.code)) return scripted.code;
  switch (scripted.errorClass) {
    case 'rate_limit':
      return 'TooManyRequests';
    case 'auth':
      return scripted.status === 403 ? 'Forbidden' : 'Unauthorized';
    case 'bad_request':
      if (scripted.status === 404) return stage === 'query' ? 'TaskNotFound' : 'NotFound';
      return scripted.status === 409 ? 'Conflict' : 'BadRequest';
    case 'content_policy':
      return stage === 'task' ? 'CreationPolicyViolation' : 'TaskPromptPolicyViolation';
    case 'insufficient_balance':
      return 'CreditInsufficient';
    case 'timeout':
    case 'overload':
      return 'InternalServiceFailure';
  }
}

/**
 * A scripted failure of a call (§3.6), with `Retry-After` when `retry_after=` asks for it. An
 * overload may pick another 5xx with `status=`; a timeout answers 504 after its silence.
 */
export function alphaScriptedError(scripted: ScriptedError, stage: 'submit' | 'query'): WireError {
  const reason = alphaScriptedReason(scripted, stage);
  const status =
    scripted.errorClass === 'timeout'
      ? 504
      : scripted.errorClass === 'overload' && scripted.status !== undefined && scripted.status >= 500
        ? scripted.status
        : undefined;
  const error = alphaError(reason, undefined, status);
  const retryHeaders = retryAfterHeader(scripted);
  return retryHeaders ? { ...error, headers: retryHeaders } : error;
}
