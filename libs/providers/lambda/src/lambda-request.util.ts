import {
  getForJsonObject,
  joinBaseUrl,
  postForJsonObject,
  UpstreamError,
  type AdapterContext,
  type JsonObject,
  type PlainKeyCredentials,
} from '@gateway/providers-core';
import { LAMBDA_SUCCESS_CODE } from '@gateway/dialects';
import { classifyLambdaError } from './lambda-error.classifier';

export type LambdaContext = AdapterContext<PlainKeyCredentials>;

/** §9.1: `Authorization: Bearer <key>`. */
function lambdaHeaders(context: LambdaContext): Record<string, string> {
  return { authorization: `Bearer ${context.channel.credentials.apiKey}` };
}

/** One POST of a JSON body; answers the envelope's `data` once its `code` says success (§9.3). */
export async function postLambda(context: LambdaContext, path: string, body: unknown): Promise<unknown> {
  const { payload } = await postForJsonObject(
    context,
    {
      url: joinBaseUrl(context.channel.baseUrl, path),
      headers: { ...lambdaHeaders(context), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
    classifyLambdaError,
  );
  return dataOf(payload);
}

/** One GET, likewise. */
export async function getLambda(context: LambdaContext, path: string): Promise<unknown> {
  const { payload } = await getForJsonObject(
    context,
    { url: joinBaseUrl(context.channel.baseUrl, path), headers: lambdaHeaders(context) },
    classifyLambdaError,
  );
  return dataOf(payload);
}

/** A 2xx answer whose `code` is not `success` is an error described by `message` (§9.3). */
function dataOf(payload: JsonObject): unknown {
  if (payload.code === LAMBDA_SUCCESS_CODE) return payload.data;
  throw new UpstreamError(classifyLambdaError(200, JSON.stringify(payload), {}));
}
