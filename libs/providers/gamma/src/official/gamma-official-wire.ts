import type { UpstreamErrorKind } from '@gateway/providers-core';

/**
 * The gamma family's official-compatible wire (upstreams.md §5.8): its endpoints, model names, task
 * statuses and error codes. One table for both sides that speak it: the gateway's client routes
 * `/gamma/v1/videos/*` and a channel whose key is `AccessKey|SecretKey`.
 */
export const GAMMA_OFFICIAL_ENDPOINTS = ['text2video', 'image2video', 'omni-video'] as const;
export type GammaOfficialEndpoint = (typeof GAMMA_OFFICIAL_ENDPOINTS)[number];

export function isGammaOfficialEndpoint(value: string): value is GammaOfficialEndpoint {
  return (GAMMA_OFFICIAL_ENDPOINTS as readonly string[]).includes(value);
}

/** The wire's path of an endpoint, and of a task's query under it. */
export const gammaOfficialPathOf = (endpoint: GammaOfficialEndpoint): string => `/v1/videos/${endpoint}`;

/** The wire's model names and the gateway's. */
const MODEL_BY_OFFICIAL_NAME: Readonly<Record<string, string>> = {
  'gamma-v2-5-turbo': 'gamma-2.5',
  'gamma-v2-6': 'gamma-2.6',
  'gamma-v3-omni': 'gamma-3.0-omni',
};
export const GAMMA_OFFICIAL_MODEL_NAMES: readonly string[] = Object.keys(MODEL_BY_OFFICIAL_NAME);

/** The gateway's model for a `model_name`; any other name (the gateway's own, a combined one) as given. */
export function gammaModelOfOfficialName(name: string): string {
  return Object.hasOwn(MODEL_BY_OFFICIAL_NAME, name) ? MODEL_BY_OFFICIAL_NAME[name] : name;
}

/** The `model_name` for a gateway model; a name the table lacks is taken as the wire's already. */
export function gammaOfficialNameOf(model: string): string {
  return Object.keys(MODEL_BY_OFFICIAL_NAME).find((name) => MODEL_BY_OFFICIAL_NAME[name] === model) ?? model;
}

/** `task_status` words and the gateway states they stand for. */
export const GAMMA_OFFICIAL_STATUS = {
  submitted: 'queued',
  processing: 'processing',
  succeed: 'completed',
  failed: 'failed',
} as const;
export type GammaOfficialStatus = keyof typeof GAMMA_OFFICIAL_STATUS;

/** `code` and `message` of a success. */
export const GAMMA_OFFICIAL_SUCCESS = { code: 0, message: 'SUCCEED' } as const;

/** One row of the §5.8 error table: the codes, their HTTP status and class, whether to retry. */
export interface GammaOfficialErrorRow {
  codes: readonly number[];
  httpStatus: number;
  kind: UpstreamErrorKind;
  retryable: boolean;
}

/** The §5.8 error table, row by row. */
export const GAMMA_OFFICIAL_ERRORS: readonly GammaOfficialErrorRow[] = [
  // 1000 auth failed, 1001 empty, 1002 invalid, 1003 not yet valid, 1004 expired.
  { codes: [1000, 1001, 1002, 1003, 1004], httpStatus: 401, kind: 'auth', retryable: false },
  { codes: [1100], httpStatus: 429, kind: 'auth', retryable: false },
  { codes: [1101, 1102], httpStatus: 429, kind: 'insufficient_balance', retryable: false },
  { codes: [1103], httpStatus: 403, kind: 'auth', retryable: false },
  // 1200 invalid request, 1201 parameters, 1202 method, 1203 resource not found (404).
  { codes: [1200, 1201, 1202, 1203], httpStatus: 400, kind: 'bad_request', retryable: false },
  { codes: [1300, 1301], httpStatus: 400, kind: 'content_policy', retryable: false },
  { codes: [1302, 1303], httpStatus: 429, kind: 'rate_limit', retryable: true },
  { codes: [5000, 5001, 5002], httpStatus: 500, kind: 'overload', retryable: true },
];

/** The row of a code, or undefined for a code the table does not list. */
export function gammaOfficialErrorRowOf(code: number): GammaOfficialErrorRow | undefined {
  return GAMMA_OFFICIAL_ERRORS.find((row) => row.codes.includes(code));
}
