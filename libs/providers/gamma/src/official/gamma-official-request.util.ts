import {
  classOfHttpStatus,
  failureOfHttpAnswer,
  getForJsonObject,
  isJsonObject,
  joinBaseUrl,
  malformedAnswerError,
  parseJsonObject,
  postForJsonObject,
  UpstreamError,
  type HttpErrorAnswer,
  type JsonObject,
  type UpstreamFailure,
} from '@gateway/providers-core';
import type { GammaTokenCredentials } from '../gamma-credentials.parse';
import type { GammaContext } from '../gamma-request.util';
import { GAMMA_CONTENT_TYPE } from '../gamma-wire.constants';
import { GAMMA_OFFICIAL_SUCCESS, gammaOfficialErrorRowOf } from './gamma-official-wire';
import { gammaBearerToken } from './gamma-token';

/**
 * One call on the §5.8 wire: `POST {base}{path}` with a JSON body, or `GET {base}{path}`, each with a
 * fresh token. The answer's `data` object, or the UpstreamError of a non-zero `code` (whatever the
 * HTTP status), classified by the §5.8 table.
 */
export async function callGammaOfficial(
  context: GammaContext,
  credentials: GammaTokenCredentials,
  request: { path: string; body?: string },
): Promise<JsonObject> {
  const url = joinBaseUrl(context.channel.baseUrl, request.path);
  const token = gammaBearerToken({ ...credentials, nowMs: context.clock.now() });
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  const answer =
    request.body === undefined
      ? await getForJsonObject(context, { url, headers }, classifyGammaOfficialError)
      : await postForJsonObject(
          context,
          { url, headers: { ...headers, 'content-type': GAMMA_CONTENT_TYPE }, body: request.body },
          classifyGammaOfficialError,
        );
  const { payload } = answer;
  // The exchange keeps no headers of a 2xx answer: a refusal inside one carries no Retry-After hint.
  if (payload.code !== GAMMA_OFFICIAL_SUCCESS.code) {
    throw new UpstreamError(officialFailureOf(payload, { status: 200, headers: {} }));
  }
  if (!isJsonObject(payload.data)) throw malformedAnswerError(200);
  return payload.data;
}

/** A non-2xx answer: the envelope's code when the body has one, else the HTTP status. */
export function classifyGammaOfficialError(
  status: number,
  body: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  return officialFailureOf(parseJsonObject(body) ?? {}, { status, headers });
}

function officialFailureOf(
  payload: Record<string, unknown>,
  answer: Pick<HttpErrorAnswer, 'status' | 'headers'>,
): UpstreamFailure {
  const code = typeof payload.code === 'number' ? payload.code : undefined;
  const row = code === undefined ? undefined : gammaOfficialErrorRowOf(code);
  const message =
    typeof payload.message === 'string' && payload.message !== ''
      ? payload.message
      : `upstream answered HTTP ${answer.status}${code === undefined ? '' : ` with code ${code}`}`;
  return failureOfHttpAnswer(row ? [row.kind, row.retryable] : classOfHttpStatus(answer.status), {
    ...answer,
    message,
    upstreamCode: code === undefined ? undefined : String(code),
  });
}
