import { ScriptedError, WireError, retryAfterHeader } from '../scripted-error';

/** The HTTP status of each §5.8 error code. */
const STATUS_OF_CODE: Readonly<Record<number, number>> = {
  1000: 401,
  1001: 401,
  1002: 401,
  1003: 401,
  1004: 401,
  1100: 429,
  1101: 429,
  1102: 429,
  1103: 403,
  1200: 400,
  1201: 400,
  1202: 400,
  1203: 404,
  1300: 400,
  1301: 400,
  1302: 429,
  1303: 429,
  5000: 500,
  5001: 503,
  5002: 504,
};

/** The code a scripted class stands for (upstreams.md §5.8); `code=` picks any other of the table. */
const CODE_OF_CLASS: Readonly<Record<ScriptedError['errorClass'], number>> = {
  auth: 1000,
  insufficient_balance: 1102,
  bad_request: 1201,
  content_policy: 1301,
  rate_limit: 1302,
  overload: 5000,
  timeout: 5002,
};

/** `{"code","message","request_id"}` with the code's HTTP status (§5.8). */
export function gammaOfficialError(code: number, message: string, requestId: string): WireError {
  return {
    status: STATUS_OF_CODE[code] ?? 400,
    body: { code, message, request_id: requestId },
    headers: { 'x-sim-reason': message },
  };
}

export function gammaOfficialScriptedError(scripted: ScriptedError, requestId: string): WireError {
  const picked = Number(scripted.code);
  const code = Object.hasOwn(STATUS_OF_CODE, picked) ? picked : CODE_OF_CLASS[scripted.errorClass];
  const error = gammaOfficialError(code, `Scripted ${scripted.errorClass} failure.`, requestId);
  return {
    ...error,
    ...(scripted.status === undefined ? {} : { status: scripted.status }),
    headers: { ...error.headers, ...retryAfterHeader(scripted) },
  };
}
