import { ScriptedError, WireError, retryAfterHeader } from '../scripted-error';

/** The `details[]` item type tag (project convention; readers match the `ErrorInfo` suffix). */
const ERROR_INFO_TYPE = 'rpc.ErrorInfo';
const RETRY_INFO_TYPE = 'rpc.RetryInfo';
const DOMAIN = 'kappa';

/** `{"error":{"code","message","status","details"?}}`, the kappa envelope (upstreams.md §1.8). */
export function kappaError(code: number, status: string, message: string, details?: unknown[]): WireError {
  return {
    status: code,
    body: { error: details ? { code, message, status, details } : { code, message, status } },
  };
}

export function kappaMissingKey(): WireError {
  return kappaError(
    403,
    'PERMISSION_DENIED',
    "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
  );
}

export function kappaInvalidKey(): WireError {
  return kappaError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
    errorInfo('API_KEY_INVALID'),
  ]);
}

export function kappaInvalidArgument(message: string): WireError {
  return kappaError(400, 'INVALID_ARGUMENT', message);
}

export function kappaModelNotFound(model: string, apiVersion: string, method: string): WireError {
  return kappaError(
    404,
    'NOT_FOUND',
    `models/${model} is not found for API version ${apiVersion}, or is not supported for ${method}. Call ListModels to see the list of available models and their supported methods.`,
  );
}

export function kappaNotFound(message: string): WireError {
  return kappaError(404, 'NOT_FOUND', message);
}

export function kappaDeadlineExceeded(): WireError {
  return kappaError(504, 'DEADLINE_EXCEEDED', 'Deadline expired before operation could complete.');
}

/**
 * The envelope of a scripted failure. `content_policy` is never an envelope on this wire (it is a 200
 * with promptFeedback), so callers handle it before coming here; it maps to a plain 400 if they don't.
 */
export function kappaScriptedError(scripted: ScriptedError): WireError {
  const error = kappaClassError(scripted);
  const retryHeaders = retryAfterHeader(scripted);
  if (!retryHeaders) return error;
  return { ...error, headers: retryHeaders };
}

function kappaClassError(scripted: ScriptedError): WireError {
  switch (scripted.errorClass) {
    case 'rate_limit':
      return kappaError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).', [
        errorInfo('RATE_LIMIT_EXCEEDED'),
        ...retryInfo(scripted.retryAfterSeconds),
      ]);
    case 'overload':
      return kappaOverload(scripted.status);
    case 'auth':
      if (scripted.status === 403) return kappaMissingKey();
      if (scripted.status === 401)
        return kappaError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
      return kappaInvalidKey();
    case 'bad_request':
      if (scripted.status === 404) return kappaNotFound('Requested entity was not found.');
      return kappaInvalidArgument('Request contains an invalid argument.');
    case 'insufficient_balance':
      return kappaError(400, 'FAILED_PRECONDITION', 'Billing is not enabled for this project.', [
        errorInfo('BILLING_DISABLED'),
      ]);
    case 'content_policy':
      return kappaInvalidArgument('The request was blocked.');
    case 'timeout':
      return kappaDeadlineExceeded();
  }
}

function kappaOverload(status: number | undefined): WireError {
  if (status === 500)
    return kappaError(
      500,
      'INTERNAL',
      'An internal error has occurred. Please retry or report in the troubleshooting guide.',
    );
  if (status === 504) return kappaDeadlineExceeded();
  return kappaError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.');
}

function errorInfo(reason: string): Record<string, string> {
  return { '@type': ERROR_INFO_TYPE, reason, domain: DOMAIN };
}

function retryInfo(seconds: number | undefined): Array<Record<string, string>> {
  return seconds === undefined ? [] : [{ '@type': RETRY_INFO_TYPE, retryDelay: `${seconds}s` }];
}
