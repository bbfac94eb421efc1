import {
  isJsonObject,
  joinBaseUrl,
  malformedAnswerError,
  postForJsonObject,
  UpstreamError,
  type AdapterContext,
  type JsonObject,
  type NoChannelSettings,
  type SerialisableObject,
} from '@gateway/providers-core';
import { gammaSignedCredentialsOf, type GammaCredentials } from './gamma-credentials.parse';
import { classifyGammaError, gammaErrorOf, gammaFailureOf } from './gamma-error.classifier';
import { signGammaRequest } from './gamma-signature';

export type GammaContext = AdapterContext<GammaCredentials, NoChannelSettings>;

/**
 * One action call (§5.1: `POST {base}/`, the action in a header, signed at the context's time). The
 * answer's `Response` object, or the UpstreamError of its `Response.Error` (§5.3: an error whatever
 * the HTTP status says).
 */
export async function callGammaAction(
  context: GammaContext,
  action: string,
  body: SerialisableObject,
): Promise<JsonObject> {
  const { baseUrl } = context.channel;
  const credentials = gammaSignedCredentialsOf(context.channel.credentials);
  const url = joinBaseUrl(baseUrl, '/');
  const text = JSON.stringify(body);
  const headers = signGammaRequest({
    secretId: credentials.secretId,
    secretKey: credentials.secretKey,
    region: credentials.region,
    action,
    url,
    body: text,
    nowMs: context.clock.now(),
  });
  const answer = await postForJsonObject(context, { url, headers, body: text }, classifyGammaError);
  const error = gammaErrorOf(answer.payload);
  if (error) throw new UpstreamError(gammaFailureOf(error));
  if (!isJsonObject(answer.payload.Response)) throw malformedAnswerError(200);
  return answer.payload.Response;
}
