import { retryAfterHeader, ScriptedError, WireError } from '../../scripted-error';
import { newBetaRequestId } from '../../beta/beta-response.builder';

export const ETA_CONTROL_VERSION = '2024-01-01';
export const ETA_CONTROL_SCOPE = { region: 'cn-beijing', service: 'eta' };

/** What every envelope of one call names. */
export interface EtaControlIdentity {
  requestId: string;
  action: string;
  version: string;
}

export function newEtaControlIdentity(action: string, version: string): EtaControlIdentity {
  return { requestId: newBetaRequestId(), action, version };
}

function metadataOf(identity: EtaControlIdentity): Record<string, string> {
  return {
    RequestId: identity.requestId,
    Action: identity.action,
    Version: identity.version,
    Service: ETA_CONTROL_SCOPE.service,
    Region: ETA_CONTROL_SCOPE.region,
  };
}

/** `{ResponseMetadata, Result}` (upstreams.md §6.5). */
export function etaControlResult(
  identity: EtaControlIdentity,
  result: Record<string, unknown>,
): Record<string, unknown> {
  return { ResponseMetadata: metadataOf(identity), Result: result };
}

/** On error `ResponseMetadata.Error = {Code, Message}` and no `Result`. */
export function etaControlError(
  status: number,
  identity: EtaControlIdentity,
  code: string,
  message: string,
): WireError {
  return {
    status,
    body: { ResponseMetadata: { ...metadataOf(identity), Error: { Code: code, Message: message } } },
  };
}

export function etaControlMissing(identity: EtaControlIdentity, field: string): WireError {
  return etaControlError(400, identity, 'MissingParameter', `The required parameter ${field} is missing.`);
}

export function etaControlInvalid(identity: EtaControlIdentity, field: string, reason: string): WireError {
  return etaControlError(400, identity, 'InvalidParameter', `The parameter ${field} is invalid: ${reason}`);
}

export function etaControlNotFound(
  identity: EtaControlIdentity,
  kind: 'Asset' | 'AssetGroup',
  id: string,
): WireError {
  return etaControlError(
    404,
    identity,
    `NotFound.${kind}`,
    `The ${kind === 'Asset' ? 'asset' : 'asset group'} ${id} does not exist.`,
  );
}

/** A scripted failure per class (§0); `code=` replaces the class's code. */
export function etaControlScriptedError(scripted: ScriptedError, identity: EtaControlIdentity): WireError {
  const [status, code, message] = classErrorOf(scripted);
  const error = etaControlError(status, identity, scripted.code ?? code, message);
  const retryHeaders = retryAfterHeader(scripted);
  return retryHeaders ? { ...error, headers: retryHeaders } : error;
}

function classErrorOf(scripted: ScriptedError): [status: number, code: string, message: string] {
  switch (scripted.errorClass) {
    case 'rate_limit':
      return [429, 'RequestLimitExceeded', 'The request rate exceeds the limit of the action.'];
    case 'overload':
      return [500, 'InternalError', 'The service encountered an internal error.'];
    case 'auth':
      return scripted.status === 403
        ? [403, 'AccessDenied', 'You do not have access to this resource.']
        : [401, 'SignatureDoesNotMatch', 'The request signature does not match.'];
    case 'bad_request':
      return scripted.status === 404
        ? [404, 'NotFound', 'The resource does not exist.']
        : [400, 'InvalidParameter', 'A parameter specified in the request is not valid.'];
    case 'content_policy':
      return [400, 'SensitiveContentDetected', 'The asset may contain sensitive information.'];
    case 'insufficient_balance':
      return [403, 'AccountOverdueError', 'Your account has an overdue balance.'];
    case 'timeout':
      return [504, 'RequestTimeout', 'The request timed out.'];
  }
}
