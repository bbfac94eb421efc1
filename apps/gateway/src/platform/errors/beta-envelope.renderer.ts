import type { FastifyRequest } from 'fastify';
import { BETA_SUCCESS_CODE } from '@gateway/dialects';
import { gatewayState } from '../http/gateway-request';
import type { GatewayError, GatewayErrorCode } from '@gateway/errors';

/** What every answer of one `/bt` call repeats: its request id, its start, and the action it named. */
export interface BetaAnswerContext {
  requestId: string;
  startedAt: number;
  action: string;
  version: string;
}

export function betaAnswerContextOf(request: FastifyRequest): BetaAnswerContext {
  const query = (request.query ?? {}) as Record<string, unknown>;
  return {
    requestId: request.id,
    // Absent only for a request refused before the gateway's first hook ran.
    startedAt: gatewayState(request)?.startedAt ?? Date.now(),
    action: firstString(query['Action']),
    version: firstString(query['Version']),
  };
}

/** The success (or business error) envelope: `{code, status, message, request_id, time_elapsed, data}` (§4.3). */
export function betaEnvelope(
  code: number,
  message: string,
  data: Record<string, unknown> | null,
  context: BetaAnswerContext,
): Record<string, unknown> {
  return {
    code,
    status: code,
    message,
    request_id: context.requestId,
    time_elapsed: `${Math.max(0, Date.now() - context.startedAt)}ms`,
    data,
  };
}

export function betaSuccess(
  data: Record<string, unknown>,
  context: BetaAnswerContext,
): Record<string, unknown> {
  return betaEnvelope(BETA_SUCCESS_CODE, 'Success', data, context);
}

/** Business codes of upstreams.md §4.6 for what the gateway decides itself; other 4xx are Invalid Param. */
const BETA_CODE_BY_ERROR: Partial<Record<GatewayErrorCode, number>> = {
  permission_denied: 50400,
  model_not_allowed: 50400,
  // The wire has no code of its own for an empty balance: Access Denied by its convention (§4.6‡).
  insufficient_balance: 50400,
  rate_limited: 50429,
  rate_limit_exceeded: 50429,
  // No budget code on the wire: Access Denied, as for an empty balance.
  budget_exceeded: 50400,
  ip_not_allowed: 50400,
  content_policy: 50412,
  upstream_unavailable: 50500,
  upstream_timeout: 50500,
  service_unavailable: 50500,
  internal: 50500,
};
const INVALID_PARAM_CODE = 50205;
const INTERNAL_ERROR_CODE = 50500;
const NUMERIC_CODE = /^\d{5}$/;

/** The `ResponseMetadata.Error` codes of the refusals that happen before any action runs. */
const METADATA_CODE_OF_PARAM: Readonly<Record<string, string>> = {
  Action: 'InvalidActionOrVersion',
  Version: 'InvalidActionOrVersion',
};

/**
 * A GatewayError in the beta family's envelopes. What refuses the call itself (its credential, its
 * `Action` or `Version`) answers in `ResponseMetadata.Error`, as the family answers a bad signature or
 * an unknown action (§4.2); everything else in the business envelope of §4.6, with the upstream's code
 * when the failure came from upstream and the gateway's explanation as its message. The HTTP status
 * is the gateway's own.
 */
export function betaErrorBody(error: GatewayError, context: BetaAnswerContext): Record<string, unknown> {
  const metadataCode =
    error.code === 'unauthenticated' ? 'InvalidAuthorization' : METADATA_CODE_OF_PARAM[error.param ?? ''];
  if (metadataCode) return betaMetadataError(metadataCode, error.message, context);
  const upstreamCode = error.options.upstreamCode;
  const code =
    upstreamCode !== undefined && NUMERIC_CODE.test(upstreamCode)
      ? Number(upstreamCode)
      : (BETA_CODE_BY_ERROR[error.code] ??
        (error.httpStatus >= 500 ? INTERNAL_ERROR_CODE : INVALID_PARAM_CODE));
  return betaEnvelope(code, error.message, null, context);
}

function betaMetadataError(
  code: string,
  message: string,
  context: BetaAnswerContext,
): Record<string, unknown> {
  return {
    ResponseMetadata: {
      RequestId: context.requestId,
      Action: context.action,
      Version: context.version,
      Error: { Code: code, Message: message },
    },
  };
}

function firstString(value: unknown): string {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : '';
}
