import { OutgoingHttpHeaders } from 'node:http';
import { Directives, SimErrorClass } from './directives';

/** How long `error=timeout` keeps a connection silent when no `hang=` is given. */
export const DEFAULT_HANG_MS = 30_000;

export interface ScriptedError {
  errorClass: SimErrorClass;
  /** Requested HTTP status, when the class has alternatives. */
  status?: number;
  retryAfterSeconds?: number;
  hangMs: number;
  /** The wire's own code, when the test picked one (`code=`). */
  code?: string;
}

/** A complete error answer of one wire: status, envelope and extra headers. */
export interface WireError {
  status: number;
  body: unknown;
  headers?: OutgoingHttpHeaders;
}

/**
 * The failure a request was scripted to meet, if any. `hang=` alone means a timeout and `status=`
 * alone picks the class that status belongs to, so `status=503` is enough to script an overload, and
 * `error_after=` alone breaks a stream with an overload.
 */
export function scriptedErrorOf(directives: Directives): ScriptedError | undefined {
  const errorClass =
    directives.error ??
    (directives.hangMs !== undefined ? 'timeout' : errorClassForStatus(directives.status)) ??
    (directives.errorAfter !== undefined ? 'overload' : undefined);
  if (!errorClass) return undefined;
  return {
    errorClass,
    status: directives.status,
    retryAfterSeconds: directives.retryAfterSeconds,
    hangMs: directives.hangMs ?? DEFAULT_HANG_MS,
    code: directives.code,
  };
}

export function retryAfterHeader(scripted: ScriptedError): OutgoingHttpHeaders | undefined {
  return scripted.retryAfterSeconds === undefined
    ? undefined
    : { 'retry-after': String(scripted.retryAfterSeconds) };
}

function errorClassForStatus(status: number | undefined): SimErrorClass | undefined {
  if (status === undefined || status < 400) return undefined;
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'overload';
  if (status === 401 || status === 403) return 'auth';
  if (status === 402) return 'insufficient_balance';
  return 'bad_request';
}
