import {
  classOfHttpStatus,
  failureOfHttpAnswer,
  isJsonObject,
  parseJsonObject,
  type UpstreamClassification,
  type UpstreamFailure,
} from '@gateway/providers-core';

/** The `base_resp.status_code`s of upstreams.md §7.5 and their class. */
const CLASS_OF_CODE: Readonly<Record<number, UpstreamClassification>> = {
  1000: ['overload', true],
  1001: ['overload', true],
  1002: ['rate_limit', true],
  1004: ['auth', false],
  1008: ['insufficient_balance', false],
  1013: ['overload', true],
  1026: ['content_policy', false],
  1027: ['content_policy', false],
  1039: ['rate_limit', true],
  2013: ['bad_request', false],
  2049: ['auth', false],
};

/** The success code of `base_resp`. */
export const MU_SUCCESS_CODE = 0;

export interface MuBaseResp {
  code: number;
  message?: string;
}

/** `base_resp` of an answer, read tolerantly; undefined when the answer has none. */
export function muBaseRespOf(payload: Record<string, unknown> | undefined): MuBaseResp | undefined {
  const baseResp = payload?.base_resp;
  if (!isJsonObject(baseResp) || typeof baseResp.status_code !== 'number') return undefined;
  return {
    code: baseResp.status_code,
    ...(typeof baseResp.status_msg === 'string' ? { message: baseResp.status_msg } : {}),
  };
}

/**
 * Maps a mu error answer to one failure (upstreams.md §7.5). The wire answers its errors with HTTP 200
 * and a non-zero `base_resp.status_code`, which decides where the table knows it; a code it does not
 * know is the client's (`bad_request`) on a 200, and anything without a code follows the HTTP status.
 */
export function classifyMuError(
  status: number,
  body: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const baseResp = muBaseRespOf(parseJsonObject(body));
  let classification: UpstreamClassification;
  if (baseResp && Object.hasOwn(CLASS_OF_CODE, baseResp.code)) classification = CLASS_OF_CODE[baseResp.code];
  else if (baseResp && status === 200) classification = ['bad_request', false];
  else classification = classOfHttpStatus(status);
  return failureOfHttpAnswer(classification, {
    status,
    headers,
    message: baseResp?.message,
    upstreamCode: baseResp ? String(baseResp.code) : undefined,
  });
}
