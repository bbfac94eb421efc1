import type { GatewayError, GatewayErrorCode } from '@gateway/errors';
import type { RouteFamily } from './route-family';

/** Native dialect: `{"error":{"code":<http>,"message","status"}}` with the canonical status strings. */
const NATIVE_STATUS_BY_CODE: Record<GatewayErrorCode, string> = {
  invalid_request: 'INVALID_ARGUMENT',
  invalid_json: 'INVALID_ARGUMENT',
  unsupported_media_type: 'INVALID_ARGUMENT',
  payload_too_large: 'INVALID_ARGUMENT',
  unauthenticated: 'UNAUTHENTICATED',
  permission_denied: 'PERMISSION_DENIED',
  model_not_allowed: 'PERMISSION_DENIED',
  not_found: 'NOT_FOUND',
  conflict: 'FAILED_PRECONDITION',
  model_not_found: 'NOT_FOUND',
  range_not_satisfiable: 'OUT_OF_RANGE',
  idempotency_conflict: 'ABORTED',
  task_not_cancellable: 'FAILED_PRECONDITION',
  insufficient_balance: 'FAILED_PRECONDITION',
  rate_limited: 'RESOURCE_EXHAUSTED',
  rate_limit_exceeded: 'RESOURCE_EXHAUSTED',
  budget_exceeded: 'RESOURCE_EXHAUSTED',
  ip_not_allowed: 'PERMISSION_DENIED',
  content_policy: 'INVALID_ARGUMENT',
  upstream_bad_request: 'INVALID_ARGUMENT',
  upstream_unavailable: 'UNAVAILABLE',
  upstream_timeout: 'DEADLINE_EXCEEDED',
  bad_gateway: 'UNAVAILABLE',
  service_unavailable: 'UNAVAILABLE',
  internal: 'INTERNAL',
};

/** OpenAI-style dialect: `{"error":{"message","type","param","code"}}`. */
const OPENAI_TYPE_BY_CODE: Record<GatewayErrorCode, string> = {
  invalid_request: 'invalid_request_error',
  invalid_json: 'invalid_request_error',
  unsupported_media_type: 'invalid_request_error',
  payload_too_large: 'invalid_request_error',
  unauthenticated: 'authentication_error',
  permission_denied: 'permission_error',
  model_not_allowed: 'permission_error',
  not_found: 'invalid_request_error',
  conflict: 'invalid_request_error',
  model_not_found: 'invalid_request_error',
  range_not_satisfiable: 'invalid_request_error',
  idempotency_conflict: 'invalid_request_error',
  task_not_cancellable: 'invalid_request_error',
  insufficient_balance: 'insufficient_quota',
  rate_limited: 'rate_limit_error',
  rate_limit_exceeded: 'rate_limit_error',
  budget_exceeded: 'insufficient_quota',
  ip_not_allowed: 'permission_error',
  content_policy: 'invalid_request_error',
  upstream_bad_request: 'invalid_request_error',
  upstream_unavailable: 'server_error',
  upstream_timeout: 'server_error',
  bad_gateway: 'server_error',
  service_unavailable: 'server_error',
  internal: 'server_error',
};

const OPENAI_CODE_BY_CODE: Partial<Record<GatewayErrorCode, string>> = {
  unauthenticated: 'invalid_api_key',
  model_not_found: 'model_not_found',
  content_policy: 'content_policy_violation',
  rate_limited: 'rate_limit_exceeded',
  insufficient_balance: 'insufficient_quota',
};

export function nativeErrorBody(error: GatewayError): Record<string, unknown> {
  return {
    error: { code: error.httpStatus, message: error.message, status: NATIVE_STATUS_BY_CODE[error.code] },
  };
}

export function openAiErrorBody(error: GatewayError): Record<string, unknown> {
  return {
    error: {
      message: error.message,
      type: OPENAI_TYPE_BY_CODE[error.code],
      param: error.param ?? null,
      code: OPENAI_CODE_BY_CODE[error.code] ?? error.code,
    },
  };
}

/** The error body for a route family; admin and system routes use the OpenAI-style envelope. */
export function errorBodyFor(family: RouteFamily, error: GatewayError): Record<string, unknown> {
  return family === 'native' ? nativeErrorBody(error) : openAiErrorBody(error);
}
