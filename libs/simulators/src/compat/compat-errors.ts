import { ScriptedError, WireError, retryAfterHeader } from '../scripted-error';

/** `{"error":{"message","type","param","code"}}`, the OpenAI-style envelope (upstreams.md §2.5). */
export function compatError(
  status: number,
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
): WireError {
  return { status, body: compatErrorBody(message, type, code, param) };
}

export function compatErrorBody(
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
): { error: { message: string; type: string; param: string | null; code: string | null } } {
  return { error: { message, type, param, code } };
}

export function compatMissingKey(): WireError {
  return compatError(
    401,
    "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
    'invalid_request_error',
    'invalid_api_key',
  );
}

export function compatInvalidKey(key: string): WireError {
  return compatError(
    401,
    `Incorrect API key provided: ${maskKey(key)}. You can find your API key in your account settings.`,
    'invalid_request_error',
    'invalid_api_key',
  );
}

export function compatMissingParameter(param: string): WireError {
  return compatError(
    400,
    `Missing required parameter: '${param}'.`,
    'invalid_request_error',
    'missing_required_parameter',
    param,
  );
}

export function compatInvalidValue(param: string, message: string): WireError {
  return compatError(400, message, 'invalid_request_error', 'invalid_value', param);
}

/** What `img-*` answer to a field they do not take, `response_format` above all (upstreams.md §2.3). */
export function compatUnknownParameter(param: string): WireError {
  return compatError(
    400,
    `Unknown parameter: '${param}'.`,
    'invalid_request_error',
    'unknown_parameter',
    param,
  );
}

export function compatInvalidJson(): WireError {
  return compatError(
    400,
    'We could not parse the JSON body of your request. The body must be a valid JSON object.',
    'invalid_request_error',
    null,
  );
}

export function compatModelNotFound(model: string): WireError {
  return compatError(
    404,
    `The model \`${model}\` does not exist or you do not have access to it.`,
    'invalid_request_error',
    'model_not_found',
  );
}

export function compatNotFound(method: string, path: string): WireError {
  return compatError(404, `Invalid URL (${method} ${path})`, 'invalid_request_error', null);
}

export function compatScriptedError(scripted: ScriptedError): WireError {
  const error = compatClassError(scripted);
  const retryHeaders = retryAfterHeader(scripted);
  return retryHeaders ? { ...error, headers: retryHeaders } : error;
}

/** How `img-*` report a blocked prompt or image (upstreams.md §2.5); `draw-*` say content_policy_violation. */
export function compatModerationBlocked(): WireError {
  return compatError(
    400,
    'Your request was rejected by the safety system. If you believe this is an error, contact us.',
    'image_generation_user_error',
    'moderation_blocked',
  );
}

function compatClassError(scripted: ScriptedError): WireError {
  switch (scripted.errorClass) {
    case 'rate_limit':
      return compatError(
        429,
        'Rate limit reached for requests. Please try again later.',
        'requests',
        'rate_limit_exceeded',
      );
    case 'insufficient_balance':
      return compatError(
        429,
        'You exceeded your current quota, please check your plan and billing details.',
        'insufficient_quota',
        'insufficient_quota',
      );
    case 'overload':
      return compatOverload(scripted.status);
    case 'auth':
      if (scripted.status === 403) {
        return compatError(
          403,
          'Country, region, or territory not supported',
          'request_forbidden',
          'unsupported_country_region_territory',
        );
      }
      return compatError(401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
    case 'bad_request':
      if (scripted.status === 404) return compatModelNotFound('scripted');
      return compatError(400, 'Invalid value for request.', 'invalid_request_error', 'invalid_value');
    case 'content_policy':
      return compatError(
        400,
        'Your request was rejected as a result of our safety system.',
        'invalid_request_error',
        'content_policy_violation',
      );
    case 'timeout':
      return compatError(504, 'Gateway timeout.', 'server_error', 'timeout');
  }
}

function compatOverload(status: number | undefined): WireError {
  switch (status) {
    case 500:
      return compatError(
        500,
        'The server had an error while processing your request. Sorry about that!',
        'server_error',
        'server_error',
      );
    case 502:
      return compatError(502, 'Bad gateway.', 'server_error', 'bad_gateway');
    case 504:
      return compatError(504, 'Gateway timeout.', 'server_error', 'timeout');
    default:
      return compatError(
        503,
        'The server is overloaded or not ready yet.',
        'server_error',
        'server_is_overloaded',
      );
  }
}

/** Shows the wire's hint of a wrong key without echoing it: `sk-ab***yz`. */
function maskKey(key: string): string {
  return key.length <= 8 ? '***' : `${key.slice(0, 5)}***${key.slice(-2)}`;
}
