import { randomUUID } from 'node:crypto';
import { ScriptedError, WireError } from '../scripted-error';

export function newGammaRequestId(): string {
  return randomUUID();
}

/**
 * `{"Response":{"Error":{"Code","Message"},"RequestId"}}`, **HTTP 200** like every answer of the wire
 * (upstreams.md §5.3); `x-sim-reason` repeats the message for whoever reads the test log.
 */
export function gammaError(code: string, message: string, requestId: string): WireError {
  return {
    status: 200,
    body: { Response: { Error: { Code: code, Message: message }, RequestId: requestId } },
    headers: { 'x-sim-reason': message },
  };
}

/** What a refused call answers: a code of §5.6 and why. */
export interface GammaRefusal {
  code: string;
  message: string;
}

const CALL_MESSAGES: Readonly<Record<string, string>> = {
  RequestLimitExceeded: 'Your request frequency exceeds the limit.',
  LimitExceeded: 'The number of running tasks exceeds the limit of the package.',
  InternalError: 'An internal error occurred.',
  'AuthFailure.SignatureFailure': 'Scripted authentication failure.',
  InvalidParameterValue: 'Scripted invalid parameter value.',
  'InvalidParameterValue.ContentAudit': 'The input did not pass the content audit.',
  'FailedOperation.InsufficientBalance': 'The account balance is insufficient.',
};

/**
 * The `Error.Code` a scripted class stands for (§5.6), or a failed task's `ErrCodeExt`; `code=`
 * picks any other. A rejected output is `ContentAuditFailed`‡ on a task.
 */
export function gammaScriptedCode(scripted: ScriptedError, stage: 'call' | 'task'): string {
  if (scripted.code !== undefined) return scripted.code;
  switch (scripted.errorClass) {
    case 'rate_limit':
      return 'RequestLimitExceeded';
    case 'auth':
      return 'AuthFailure.SignatureFailure';
    case 'bad_request':
      return 'InvalidParameterValue';
    case 'content_policy':
      return stage === 'call' ? 'InvalidParameterValue.ContentAudit' : 'ContentAuditFailed';
    case 'insufficient_balance':
      return 'FailedOperation.InsufficientBalance';
    case 'timeout':
      return stage === 'call' ? 'InternalError' : 'InternalError.Timeout';
    case 'overload':
      return 'InternalError';
  }
}

/** A scripted failure of a call: still HTTP 200, the class's code in `Response.Error`. */
export function gammaScriptedError(scripted: ScriptedError, requestId: string): WireError {
  const code = gammaScriptedCode(scripted, 'call');
  const message =
    scripted.errorClass === 'timeout' ? 'The request timed out.' : (CALL_MESSAGES[code] ?? 'Scripted error.');
  return gammaError(code, message, requestId);
}
