import { ScriptedError, WireError, retryAfterHeader } from '../scripted-error';

/** `{code, message, data: null}` with the HTTP status that gives its class (upstreams.md §9.5). */
export function lambdaError(status: number, code: string, message: string): WireError {
  return { status, body: { code, message, data: null } };
}

/** The status, code word and message each scripted class answers with (§9.5; 402 is the ‡ convention). */
function classAnswer(scripted: ScriptedError): [status: number, code: string, message: string] {
  switch (scripted.errorClass) {
    case 'rate_limit':
      return [429, 'too_many_requests', 'too many requests'];
    case 'auth':
      return scripted.status === 403
        ? [403, 'forbidden', 'the key may not do this']
        : [401, 'unauthorized', 'invalid api key'];
    case 'bad_request':
      return scripted.status === 404
        ? [404, 'task_not_found', 'task not found']
        : [400, 'bad_request', 'bad request'];
    case 'content_policy':
      return [400, 'content_policy_violation', 'the request violates the content policy'];
    case 'insufficient_balance':
      return [402, 'insufficient_balance', 'insufficient balance'];
    case 'timeout':
      return [504, 'timeout', 'the upstream timed out'];
    case 'overload':
      return [
        scripted.status !== undefined && scripted.status >= 500 ? scripted.status : 500,
        'internal_error',
        'internal error',
      ];
  }
}

/**
 * A scripted failure of a call, with `Retry-After` when `retry_after=` asks for it; `code=` replaces
 * the code word. A timeout answers 504 after its silence.
 */
export function lambdaScriptedError(scripted: ScriptedError): WireError {
  const [status, code, message] = classAnswer(scripted);
  const error = lambdaError(status, scripted.code ?? code, message);
  const retryHeaders = retryAfterHeader(scripted);
  return retryHeaders ? { ...error, headers: retryHeaders } : error;
}

/** The `fail_reason` of a task scripted to fail (`error=<class>,error_after=<n>`): `code=` or the class's words. */
export function lambdaFailReason(scripted: ScriptedError): string {
  return scripted.code ?? classAnswer(scripted)[2];
}
