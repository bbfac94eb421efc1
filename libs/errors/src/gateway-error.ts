/**
 * The one internal error type. Everything the gateway refuses or fails with becomes a GatewayError;
 * a renderer per route family turns it into that family's wire envelope.
 */
export type GatewayErrorCode =
  | 'invalid_request'
  | 'invalid_json'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'unauthenticated'
  | 'permission_denied'
  | 'model_not_allowed'
  | 'not_found'
  | 'conflict'
  | 'model_not_found'
  | 'range_not_satisfiable'
  | 'idempotency_conflict'
  | 'task_not_cancellable'
  | 'insufficient_balance'
  | 'rate_limited'
  | 'rate_limit_exceeded'
  | 'budget_exceeded'
  | 'ip_not_allowed'
  | 'content_policy'
  | 'upstream_bad_request'
  | 'upstream_unavailable'
  | 'upstream_timeout'
  | 'bad_gateway'
  | 'service_unavailable'
  | 'internal';

const HTTP_STATUS_BY_CODE: Record<GatewayErrorCode, number> = {
  invalid_request: 400,
  invalid_json: 400,
  unsupported_media_type: 400,
  payload_too_large: 413,
  unauthenticated: 401,
  permission_denied: 403,
  model_not_allowed: 403,
  not_found: 404,
  /** The resource exists but is not in a state that allows the request (a video not finished yet). */
  conflict: 409,
  model_not_found: 404,
  range_not_satisfiable: 416,
  idempotency_conflict: 409,
  /** A task the upstream already took on and cannot be told to stop: it runs on and is billed. */
  task_not_cancellable: 409,
  insufficient_balance: 402,
  rate_limited: 429,
  /** A limit of the key or its account (docs/governance.md); the message names it. */
  rate_limit_exceeded: 429,
  /** A budget of the key or its account; the message names the period and when it resets. */
  budget_exceeded: 402,
  /** The client's address is outside the key's allowedIps. */
  ip_not_allowed: 403,
  content_policy: 400,
  upstream_bad_request: 400,
  upstream_unavailable: 503,
  upstream_timeout: 504,
  /** The upstream pointed at something the gateway will not or cannot fetch (a private address). */
  bad_gateway: 502,
  service_unavailable: 503,
  internal: 500,
};

export interface GatewayErrorOptions {
  /** The request field the error is about, written like the wire (`contents[0].parts`). */
  param?: string;
  retryAfterMs?: number;
  cause?: unknown;
  /** The upstream's own error code, for an official family route that answers with it (`/bt`). */
  upstreamCode?: string;
  /** Headers the answer carries beside the body (the x-ratelimit-* of a limit refusal). */
  headers?: Readonly<Record<string, string>>;
}

export class GatewayError extends Error {
  readonly httpStatus: number;

  constructor(
    readonly code: GatewayErrorCode,
    message: string,
    readonly options: GatewayErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'GatewayError';
    this.httpStatus = HTTP_STATUS_BY_CODE[code];
  }

  get param(): string | undefined {
    return this.options.param;
  }

  static invalidRequest(message: string, param?: string): GatewayError {
    return new GatewayError('invalid_request', message, { param });
  }
}
