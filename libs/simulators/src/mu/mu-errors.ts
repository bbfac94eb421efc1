import { ScriptedError, WireError } from '../scripted-error';

/** `base_resp` codes of upstreams.md §7.5 and the `status_msg` the simulator writes for each. */
export const MU_STATUS_MESSAGES: Readonly<Record<number, string>> = {
  0: 'success',
  1000: 'unknown error',
  1001: 'request timeout',
  1002: 'rate limit exceeded (RPM)',
  1004: 'authentication failed',
  1008: 'insufficient balance',
  1013: 'internal service error',
  1026: 'input new_sensitive',
  1027: 'output new_sensitive',
  1039: 'rate limit exceeded (TPM)',
  2013: 'invalid params',
  2049: 'invalid api key',
};

export const MU_INVALID_PARAMS = 2013;
export const MU_INPUT_SENSITIVE = 1026;
export const MU_OUTPUT_SENSITIVE = 1027;

/** `{status_code, status_msg}`; a detail (an invalid parameter's rule) follows the code's message. */
export function muBaseResp(code: number, detail?: string): Record<string, unknown> {
  const message = MU_STATUS_MESSAGES[code] ?? 'error';
  return { status_code: code, status_msg: detail ? `${message}: ${detail}` : message };
}

/** Every mu error is an HTTP 200 answer carrying only `base_resp` (§7.5). */
export function muError(code: number, detail?: string): WireError {
  return { status: 200, body: { base_resp: muBaseResp(code, detail) } };
}

export function muInvalidParams(rule: string): WireError {
  return muError(MU_INVALID_PARAMS, rule);
}

/**
 * The code a scripted class stands for; `code=` picks any code of the table instead (`1039`, `1013`,
 * `2049` …). `stage` tells an input-side moderation verdict (a submission) from an output-side one.
 */
export function muScriptedCode(scripted: ScriptedError, stage: 'submit' | 'task'): number {
  const picked =
    scripted.code !== undefined && /^\d+$/.test(scripted.code) ? Number(scripted.code) : undefined;
  if (picked !== undefined) return picked;
  switch (scripted.errorClass) {
    case 'rate_limit':
      return 1002;
    case 'auth':
      return 1004;
    case 'insufficient_balance':
      return 1008;
    case 'content_policy':
      return stage === 'submit' ? MU_INPUT_SENSITIVE : MU_OUTPUT_SENSITIVE;
    case 'bad_request':
      return MU_INVALID_PARAMS;
    case 'timeout':
      return 1001;
    case 'overload':
      return 1000;
  }
}

/** A scripted failure of a call: HTTP 200 with the class's code (a timeout answers 1001 after its hang). */
export function muScriptedError(scripted: ScriptedError): WireError {
  return muError(muScriptedCode(scripted, 'submit'));
}
