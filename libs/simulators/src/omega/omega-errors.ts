import { randomUUID } from 'node:crypto';
import { ScriptedError, WireError, retryAfterHeader } from '../scripted-error';

/** The codes of upstreams.md §8.5 with their HTTP status and the message the simulator writes. */
const OMEGA_ERRORS: Readonly<Record<string, readonly [status: number, message: string]>> = {
  InvalidParameter: [400, 'The parameter is invalid.'],
  DataInspectionFailed: [400, 'Input data may contain inappropriate content.'],
  Arrearage: [400, 'Access denied, please make sure your account is in good standing.'],
  InvalidApiKey: [401, 'Invalid API-key provided.'],
  AccessDenied: [403, 'Access denied.'],
  Throttling: [429, 'Requests throttling triggered.'],
  'Throttling.RateQuota': [429, 'Requests rate limit exceeded, please try again later.'],
  'Throttling.AllocationQuota': [429, 'Allocated quota exceeded, please increase your quota limit.'],
  InternalError: [500, 'An internal error has occurred, please try again later.'],
  RequestTimeOut: [504, 'Request timed out, please try again later.'],
};

export function newOmegaRequestId(): string {
  return randomUUID();
}

/** `{"request_id","code","message"}` with the code's status; `message` replaces the table's. */
export function omegaError(code: string, message?: string, status?: number): WireError {
  const [tableStatus, tableMessage] = OMEGA_ERRORS[code] ?? [status ?? 400, 'Error.'];
  return {
    status: status ?? tableStatus,
    body: { request_id: newOmegaRequestId(), code, message: message ?? tableMessage },
  };
}

export function omegaInvalidParameter(rule: string): WireError {
  return omegaError('InvalidParameter', rule);
}

/** The code a scripted class stands for on a call, or a failed task's `output.code`; `code=` picks another. */
export function omegaScriptedCode(scripted: ScriptedError, stage: 'call' | 'task'): string {
  if (scripted.code !== undefined) return scripted.code;
  switch (scripted.errorClass) {
    case 'rate_limit':
      return 'Throttling.RateQuota';
    case 'auth':
      return scripted.status === 403 ? 'AccessDenied' : 'InvalidApiKey';
    case 'bad_request':
      return 'InvalidParameter';
    case 'content_policy':
      return 'DataInspectionFailed';
    case 'insufficient_balance':
      return 'Arrearage';
    case 'timeout':
      return stage === 'call' ? 'RequestTimeOut' : 'InternalError.Timeout';
    case 'overload':
      return 'InternalError';
  }
}

/** A scripted failure of a call (§8.5), with `Retry-After` when `retry_after=` asks for it. */
export function omegaScriptedError(scripted: ScriptedError): WireError {
  const error = omegaError(omegaScriptedCode(scripted, 'call'));
  const retryHeaders = retryAfterHeader(scripted);
  return retryHeaders ? { ...error, headers: retryHeaders } : error;
}
