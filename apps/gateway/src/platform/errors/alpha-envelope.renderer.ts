import type { GatewayError, GatewayErrorCode } from '@gateway/errors';

/**
 * The §3.6 `reason` of each error the gateway decides itself on the alpha routes (upstreams.md §3.6:
 * the family's vocabulary; a refusal of a field is `FieldInvalid`, of the request as a whole
 * `BadRequest`, like the upstream's own checks).
 */
const REASON_BY_CODE: Record<GatewayErrorCode, string> = {
  invalid_request: 'FieldInvalid',
  invalid_json: 'BadRequest',
  unsupported_media_type: 'BadRequest',
  // The upstream answers an oversized body 413 `BadRequest` too.
  payload_too_large: 'BadRequest',
  unauthenticated: 'Unauthorized',
  permission_denied: 'Forbidden',
  model_not_allowed: 'Forbidden',
  not_found: 'NotFound',
  conflict: 'Conflict',
  model_not_found: 'ModelUnavailable',
  range_not_satisfiable: 'BadRequest',
  idempotency_conflict: 'Conflict',
  task_not_cancellable: 'Conflict',
  insufficient_balance: 'CreditInsufficient',
  rate_limited: 'TooManyRequests',
  rate_limit_exceeded: 'TooManyRequests',
  budget_exceeded: 'CreditInsufficient',
  ip_not_allowed: 'Forbidden',
  content_policy: 'TaskPromptPolicyViolation',
  upstream_bad_request: 'BadRequest',
  upstream_unavailable: 'InternalServiceFailure',
  upstream_timeout: 'InternalServiceFailure',
  bad_gateway: 'InternalServiceFailure',
  service_unavailable: 'InternalServiceFailure',
  internal: 'InternalServiceFailure',
};

/** A §3.6 reason word, as the alpha routes set one on an error (`FieldLacking`, `TaskNotFound` …). */
const REASON_WORD = /^[A-Z][A-Za-z]{1,63}$/;

/**
 * A GatewayError in the alpha family's envelope (upstreams.md §3.6):
 * `{code, reason, message, metadata: {trace_id}}`. `code` is the HTTP status, the gateway's own;
 * `reason` the one the route chose (GatewayError's `upstreamCode`), else the code's; `message` names
 * the field and the rule; `trace_id` is the gateway's request id.
 */
export function alphaErrorBody(error: GatewayError, requestId: string): Record<string, unknown> {
  const chosen = error.options.upstreamCode;
  const reason = chosen !== undefined && REASON_WORD.test(chosen) ? chosen : reasonOf(error);
  return {
    code: error.httpStatus,
    reason,
    message: error.message,
    metadata: { trace_id: requestId },
  };
}

function reasonOf(error: GatewayError): string {
  if (error.code === 'invalid_request' && error.param === undefined) return 'BadRequest';
  return REASON_BY_CODE[error.code];
}
