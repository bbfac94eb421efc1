import type { GatewayError, GatewayErrorCode } from '@gateway/errors';

/**
 * The §5.8 code of each error the gateway decides itself on the gamma routes (upstreams.md §5.8 error
 * table, by class): a refused field 1201, a request that is not one 1200, an unknown resource 1203,
 * authentication 1000, permission 1103, an empty balance 1101 (arrears), a rate limit 1302, content
 * safety 1301, the service's own trouble 5000–5002.
 */
const CODE_BY_ERROR: Record<GatewayErrorCode, number> = {
  invalid_request: 1201,
  invalid_json: 1200,
  unsupported_media_type: 1200,
  payload_too_large: 1200,
  unauthenticated: 1000,
  permission_denied: 1103,
  model_not_allowed: 1103,
  not_found: 1203,
  conflict: 1200,
  model_not_found: 1201,
  range_not_satisfiable: 1201,
  idempotency_conflict: 1200,
  task_not_cancellable: 1200,
  insufficient_balance: 1101,
  rate_limited: 1302,
  rate_limit_exceeded: 1302,
  budget_exceeded: 1101,
  ip_not_allowed: 1103,
  content_policy: 1301,
  upstream_bad_request: 1201,
  upstream_unavailable: 5001,
  upstream_timeout: 5002,
  bad_gateway: 5001,
  service_unavailable: 5001,
  internal: 5000,
};

/**
 * A GatewayError in the gamma family's envelope (upstreams.md §5.8): `{code, message, request_id}`
 * with the code of its class, the gateway's explanation as the message and the gateway's request
 * id. The HTTP status is the gateway's own, as on the other family routes.
 */
export function gammaErrorBody(error: GatewayError, requestId: string): Record<string, unknown> {
  return { code: CODE_BY_ERROR[error.code], message: error.message, request_id: requestId };
}
