import { ScriptedError, WireError, retryAfterHeader } from '../scripted-error';

/**
 * `{"error":{"code","message","param","type"}}`, the eta data-plane envelope (upstreams.md §6.1). The
 * message ends with the request id, which also travels in the `x-request-id` header.
 */
export function etaError(
  status: number,
  type: string,
  code: string,
  message: string,
  requestId: string,
  param = '',
): WireError {
  return {
    status,
    body: { error: { code, message: `${message} Request id: ${requestId}`, param, type } },
    headers: { 'x-request-id': requestId },
  };
}

export function etaMissingParameter(param: string, requestId: string): WireError {
  return etaError(
    400,
    'BadRequest',
    'MissingParameter',
    `The request failed because it is missing one or multiple required parameters: ${param}.`,
    requestId,
    param,
  );
}

export function etaInvalidParameter(
  param: string,
  reason: string,
  requestId: string,
  code = 'InvalidParameter',
): WireError {
  return etaError(
    400,
    'BadRequest',
    code,
    `The parameter \`${param}\` specified in the request is not valid: ${reason}`,
    requestId,
    param,
  );
}

export function etaInvalidJson(requestId: string): WireError {
  return etaError(400, 'BadRequest', 'InvalidParameter', 'The request body is not valid JSON.', requestId);
}

export function etaAuthenticationError(requestId: string): WireError {
  return etaError(
    401,
    'Unauthorized',
    'AuthenticationError',
    'The API key or AK/SK in the request is missing or invalid.',
    requestId,
  );
}

export function etaModelNotFound(model: string, requestId: string): WireError {
  return etaError(
    404,
    'NotFound',
    'InvalidEndpointOrModel.NotFound',
    `The model or endpoint ${model} does not exist or you do not have access to it.`,
    requestId,
  );
}

export function etaNotFound(path: string, requestId: string): WireError {
  return etaError(404, 'NotFound', 'NotFound', `The requested resource ${path} was not found.`, requestId);
}

export function etaSensitiveContent(code: string, requestId: string): WireError {
  return etaError(
    400,
    'BadRequest',
    code,
    'The request failed because the input or output may contain sensitive information.',
    requestId,
  );
}

export const ETA_INPUT_TEXT_SENSITIVE = 'InputTextSensitiveContentDetected';
export const ETA_OUTPUT_IMAGE_SENSITIVE = 'OutputImageSensitiveContentDetected';
export const ETA_OUTPUT_VIDEO_SENSITIVE = 'OutputVideoSensitiveContentDetected';

/** A scripted failure per class (upstreams.md §6.1); `code=` replaces the class's default code. */
export function etaScriptedError(scripted: ScriptedError, requestId: string): WireError {
  const [status, type, defaultCode, message] = classErrorOf(scripted);
  const error = etaError(status, type, scripted.code ?? defaultCode, message, requestId);
  const retryHeaders = retryAfterHeader(scripted);
  return retryHeaders ? { ...error, headers: { ...error.headers, ...retryHeaders } } : error;
}

type ClassError = [status: number, type: string, code: string, message: string];

function classErrorOf(scripted: ScriptedError): ClassError {
  switch (scripted.errorClass) {
    case 'rate_limit':
      return [
        429,
        'TooManyRequests',
        'RateLimitExceeded.EndpointRPMExceeded',
        'The request exceeded the rate limit.',
      ];
    case 'overload':
      return scripted.status === 429
        ? [429, 'TooManyRequests', 'ServerOverloaded', 'The service is overloaded. Please retry later.']
        : [
            500,
            'InternalServerError',
            'InternalServiceError',
            'The service encountered an unexpected internal error.',
          ];
    case 'auth':
      return scripted.status === 403
        ? [403, 'Forbidden', 'AccessDenied', 'You do not have access to this resource.']
        : [
            401,
            'Unauthorized',
            'AuthenticationError',
            'The API key or AK/SK in the request is missing or invalid.',
          ];
    case 'bad_request':
      return scripted.status === 404
        ? [404, 'NotFound', 'InvalidEndpointOrModel.NotFound', 'The model or endpoint does not exist.']
        : [400, 'BadRequest', 'InvalidParameter', 'A parameter specified in the request is not valid.'];
    case 'content_policy':
      return [
        400,
        'BadRequest',
        ETA_INPUT_TEXT_SENSITIVE,
        'The request failed because the input or output may contain sensitive information.',
      ];
    case 'insufficient_balance':
      return [403, 'Forbidden', 'AccountOverdueError', 'Your account has an overdue balance.'];
    case 'timeout':
      return [504, 'GatewayTimeout', 'RequestTimeout', 'The request timed out.'];
  }
}
