import {
  joinBaseUrl,
  postForJsonObject,
  signBetaRequest,
  UpstreamError,
  type AdapterContext,
  type JsonObject,
} from '@gateway/providers-core';
import { BETA_API_VERSION, BETA_SUCCESS_CODE } from '@gateway/dialects';
import { betaSigningScopeOf, type BetaChannelSettings } from './beta-channel.settings';
import type { BetaCredentials } from './beta-credentials.parse';
import { classifyBetaError } from './beta-error.classifier';

export type BetaContext = AdapterContext<BetaCredentials, BetaChannelSettings>;

/** Signed calls go to `{base}/`, a relay's to `{base}/bt`, both with the action in the query (§4.1). */
export function betaActionUrl(baseUrl: string, action: string, credentials: BetaCredentials): string {
  const path = credentials.kind === 'relay' ? '/bt' : '/';
  return joinBaseUrl(baseUrl, `${path}?Action=${action}&Version=${BETA_API_VERSION}`);
}

/** A relay takes its key as a Bearer token; a signed call signs the exact body at the context's time. */
export function betaActionHeaders(url: string, body: string, context: BetaContext): Record<string, string> {
  const { credentials, settings } = context.channel;
  if (credentials.kind === 'relay') {
    return { authorization: `Bearer ${credentials.apiKey}`, 'content-type': 'application/json' };
  }
  return signBetaRequest({
    accessKey: credentials.accessKey,
    secretKey: credentials.secretKey,
    ...betaSigningScopeOf(settings),
    method: 'POST',
    url,
    body,
    nowMs: context.clock.now(),
  });
}

/**
 * One action call whose answer is the success envelope; an error answer, or a 2xx one whose `code`
 * is not the success code, becomes the UpstreamError of §4.6.
 */
export async function callBetaAction(
  context: BetaContext,
  action: string,
  body: string,
): Promise<JsonObject> {
  const url = betaActionUrl(context.channel.baseUrl, action, context.channel.credentials);
  const answer = await postForJsonObject(
    context,
    { url, headers: betaActionHeaders(url, body, context), body },
    classifyBetaError,
  );
  if (answer.payload.code !== BETA_SUCCESS_CODE) {
    throw new UpstreamError(classifyBetaError(200, answer.body.toString('utf8'), {}));
  }
  return answer.payload;
}
