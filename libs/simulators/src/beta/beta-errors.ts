import { ScriptedError, WireError, retryAfterHeader } from '../scripted-error';
import { BETA_REGION, BETA_SERVICE } from './beta-signature.util';
import { BetaEnvelopeMeta, betaEnvelope } from './beta-response.builder';

export const BETA_SUCCESS_CODE = 10000;
export const BETA_INVALID_PARAM_CODE = 50205;

/** The business codes of upstreams.md §4.6 with their HTTP status and message. */
const BUSINESS_ERRORS: Record<number, readonly [status: number, message: string]> = {
  50205: [400, 'Invalid Param'],
  50400: [400, 'Access Denied'],
  50411: [400, 'Pre Img Risk Not Pass'],
  50412: [400, 'Text Risk Not Pass'],
  50413: [400, 'Post Text Risk Not Pass'],
  50429: [429, 'Request Has Reached API Limit, Please Try Later'],
  50430: [429, 'Request Has Reached API Concurrent Limit, Please Try Later'],
  50500: [500, 'Internal Error'],
  50501: [500, 'Internal RPC Error'],
  50511: [400, 'Post Img Risk Not Pass'],
  50512: [400, 'Post Text Risk Not Pass'],
  50516: [400, 'Post Video Risk Not Pass'],
  50517: [400, 'Post Audio Risk Not Pass'],
  50518: [400, 'Pre Img Copyright Check Not Pass'],
  50519: [400, 'Post Img Copyright Check Not Pass'],
  50520: [400, 'Risk Internal Error'],
  50521: [400, 'Risk Internal Error'],
  50522: [400, 'Risk Internal Error'],
};

/** `{code, status, message, request_id, time_elapsed, data: null}` with the code's HTTP status. */
export function betaBusinessError(code: number, meta: BetaEnvelopeMeta, status?: number): WireError {
  const [tableStatus, message] = BUSINESS_ERRORS[code] ?? [status ?? 400, 'Error'];
  return { status: status ?? tableStatus, body: betaEnvelope(code, message, null, meta) };
}

/** Invalid parameters (§4.6‡); `x-sim-reason` says which rule refused, for whoever reads the test log. */
export function betaInvalidParam(reason: string, meta: BetaEnvelopeMeta): WireError {
  return { ...betaBusinessError(BETA_INVALID_PARAM_CODE, meta), headers: { 'x-sim-reason': reason } };
}

export interface BetaCallIdentity {
  action: string;
  version: string;
  requestId: string;
}

/** The `ResponseMetadata.Error` envelope of signature failures (§4.2) and of unknown actions. */
export function betaMetadataError(
  status: number,
  identity: BetaCallIdentity,
  code: string,
  message: string,
): WireError {
  return {
    status,
    body: {
      ResponseMetadata: {
        RequestId: identity.requestId,
        Action: identity.action,
        Version: identity.version,
        Service: BETA_SERVICE,
        Region: BETA_REGION,
        Error: { Code: code, Message: message },
      },
    },
  };
}

/**
 * A scripted failure per class (§4.6). `code=` picks any business code of the table (its HTTP status
 * follows), or, for `auth`, the `Error.Code` of the 401 envelope. A blocked request is a text risk at
 * submission and an image risk when the result is read.
 */
export function betaScriptedError(
  scripted: ScriptedError,
  identity: BetaCallIdentity,
  meta: BetaEnvelopeMeta,
  stage: 'submit' | 'result',
): WireError {
  const error = classErrorOf(scripted, identity, meta, stage);
  const retryHeaders = retryAfterHeader(scripted);
  return retryHeaders ? { ...error, headers: { ...error.headers, ...retryHeaders } } : error;
}

function classErrorOf(
  scripted: ScriptedError,
  identity: BetaCallIdentity,
  meta: BetaEnvelopeMeta,
  stage: 'submit' | 'result',
): WireError {
  const pickedCode =
    scripted.code !== undefined && /^\d+$/.test(scripted.code) ? Number(scripted.code) : undefined;
  if (scripted.errorClass === 'auth' && pickedCode === undefined) {
    return betaMetadataError(
      401,
      identity,
      scripted.code ?? 'SignatureDoesNotMatch',
      'Scripted authentication failure.',
    );
  }
  if (scripted.errorClass === 'timeout') return betaBusinessError(pickedCode ?? 50500, meta, 504);
  return betaBusinessError(pickedCode ?? defaultCodeOf(scripted, stage), meta);
}

function defaultCodeOf(scripted: ScriptedError, stage: 'submit' | 'result'): number {
  switch (scripted.errorClass) {
    case 'rate_limit':
      return 50429;
    case 'content_policy':
      return stage === 'submit' ? 50412 : 50511;
    case 'bad_request':
      return BETA_INVALID_PARAM_CODE;
    case 'insufficient_balance':
      return 50400; // no dedicated code on the wire; Access Denied by convention (§4.6‡)
    default:
      return 50500;
  }
}
