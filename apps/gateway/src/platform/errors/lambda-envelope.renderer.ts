import type { GatewayError } from '@gateway/errors';

/**
 * A GatewayError in the lambda family's envelope (upstreams.md §9.3, §9.5): `{code, message, data}`
 * with the HTTP status of the error. `code` is never `success`: it is the gateway's error code
 * (`invalid_request`, `not_found`, `model_not_found`, `insufficient_balance` …), `message` names the
 * field and the rule, `data` is null.
 */
export function lambdaErrorBody(error: GatewayError): Record<string, unknown> {
  return { code: error.code, message: error.message, data: null };
}
