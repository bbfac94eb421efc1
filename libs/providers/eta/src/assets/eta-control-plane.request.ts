import {
  isJsonObject,
  joinBaseUrl,
  malformedAnswerError,
  postForJsonObject,
  signBetaRequest,
  UpstreamError,
  type AdapterContext,
  type JsonObject,
  type PlainKeyCredentials,
} from '@gateway/providers-core';
import { etaControlPlaneOf, type EtaChannelSettings } from '../eta-channel.settings';
import { classifyEtaControlError, etaControlErrorOf } from './eta-control-error.classifier';

export type EtaContext = AdapterContext<PlainKeyCredentials, EtaChannelSettings>;

/** The control plane's API version and signing scope (upstreams.md §6.5). */
export const ETA_CONTROL_VERSION = '2024-01-01';
export const ETA_CONTROL_REGION = 'cn-beijing';
export const ETA_CONTROL_SERVICE = 'eta';
/** Every action of the gateway's asset library works in the platform's default project. */
export const ETA_PROJECT_NAME = 'default';

/**
 * One control-plane action, `POST {ctl_base}/?Action=<action>&Version=2024-01-01` with a JSON body
 * signed with BETA-HMAC-SHA256 in the control plane's own scope, answering the envelope's `Result`.
 * An error answer, or a 2xx one carrying `ResponseMetadata.Error`, is the UpstreamError of its class.
 */
export async function callEtaControlAction(
  context: EtaContext,
  action: string,
  request: JsonObject,
): Promise<JsonObject> {
  const controlPlane = etaControlPlaneOf(context.channel.settings);
  if (!controlPlane) throw new TypeError('this eta channel has no asset control plane configured');
  const url = joinBaseUrl(controlPlane.baseUrl, `/?Action=${action}&Version=${ETA_CONTROL_VERSION}`);
  const body = JSON.stringify(request);
  const headers = signBetaRequest({
    accessKey: controlPlane.accessKey,
    secretKey: controlPlane.secretKey,
    region: ETA_CONTROL_REGION,
    service: ETA_CONTROL_SERVICE,
    method: 'POST',
    url,
    body,
    nowMs: context.clock.now(),
  });
  const answer = await postForJsonObject(context, { url, headers, body }, classifyEtaControlError);
  // The answer was a 2xx: an error in it is classified by its code alone.
  if (etaControlErrorOf(answer.payload)) {
    throw new UpstreamError(classifyEtaControlError(200, answer.body.toString('utf8'), {}));
  }
  const result = answer.payload.Result;
  if (!isJsonObject(result)) throw malformedAnswerError(200);
  return result;
}

/** The `Id` a create action answers. */
export function createdIdOf(result: JsonObject): string {
  if (typeof result.Id !== 'string' || result.Id === '') throw malformedAnswerError(200);
  return result.Id;
}
