import {
  getForJsonObject,
  joinBaseUrl,
  postForJsonObject,
  UpstreamError,
  type AdapterContext,
  type JsonObject,
  type PlainKeyCredentials,
} from '@gateway/providers-core';
import { classifyMuError, muBaseRespOf, MU_SUCCESS_CODE } from './mu-error.classifier';

export type MuContext = AdapterContext<PlainKeyCredentials>;

export const MU_SUBMIT_PATH = '/v1/video_generation';
export const MU_QUERY_PATH = '/v1/query/video_generation';
export const MU_FILE_RETRIEVE_PATH = '/v1/files/retrieve';

/** An answer of the wire: its JSON object and its text (for the classifier of §7.5). */
export interface MuAnswer {
  payload: JsonObject;
  text: string;
}

function muHeaders(apiKey: string, withBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
  if (withBody) headers['content-type'] = 'application/json';
  return headers;
}

/** `POST {base}{path}` with a JSON body (§7.1: `Authorization: Bearer <key>`). */
export async function postMu(context: MuContext, path: string, body: JsonObject): Promise<MuAnswer> {
  const answer = await postForJsonObject(
    context,
    {
      url: joinBaseUrl(context.channel.baseUrl, path),
      headers: muHeaders(context.channel.credentials.apiKey, true),
      body: JSON.stringify(body),
    },
    classifyMuError,
  );
  return { payload: answer.payload, text: answer.body.toString('utf8') };
}

/** `GET {base}{path}?{name}={value}`. */
export async function getMu(
  context: MuContext,
  path: string,
  query: Record<string, string>,
): Promise<MuAnswer> {
  const url = `${joinBaseUrl(context.channel.baseUrl, path)}?${new URLSearchParams(query).toString()}`;
  const answer = await getForJsonObject(
    context,
    { url, headers: muHeaders(context.channel.credentials.apiKey, false) },
    classifyMuError,
  );
  return { payload: answer.payload, text: answer.body.toString('utf8') };
}

/** Whether an answer's `base_resp` says success; an answer without one is taken at its HTTP word. */
export function isMuSuccess(answer: MuAnswer): boolean {
  const baseResp = muBaseRespOf(answer.payload);
  return baseResp === undefined || baseResp.code === MU_SUCCESS_CODE;
}

/** The UpstreamError of an HTTP 200 answer whose `base_resp` carries an error code (§7.5). */
export function muAnswerError(answer: MuAnswer): UpstreamError {
  return new UpstreamError(classifyMuError(200, answer.text, {}));
}

/** The answer, or its error thrown. */
export function muSuccessOrThrow(answer: MuAnswer): JsonObject {
  if (!isMuSuccess(answer)) throw muAnswerError(answer);
  return answer.payload;
}
