import {
  classOfHttpStatus,
  failureOfHttpAnswer,
  parseJsonObject,
  type UpstreamClassification,
  type UpstreamFailure,
} from '@gateway/providers-core';

/** The `code`s of upstreams.md §8.5 and their class; every `Throttling.*` code is a rate limit. */
const CLASS_OF_CODE: Readonly<Record<string, UpstreamClassification>> = {
  InvalidParameter: ['bad_request', false],
  DataInspectionFailed: ['content_policy', false],
  Arrearage: ['insufficient_balance', false],
  InvalidApiKey: ['auth', false],
  AccessDenied: ['auth', false],
  InternalError: ['overload', true],
};
const THROTTLING_PREFIX = 'Throttling';

function classOfCode(code: string | undefined): UpstreamClassification | undefined {
  if (code === undefined) return undefined;
  if (code === THROTTLING_PREFIX || code.startsWith(`${THROTTLING_PREFIX}.`)) return ['rate_limit', true];
  return Object.hasOwn(CLASS_OF_CODE, code) ? CLASS_OF_CODE[code] : undefined;
}

/**
 * Maps an omega error answer, `{"request_id","code","message"}` with a 4xx/5xx status, to one failure
 * (upstreams.md §8.5). The code decides where the table knows it (three classes share the 400s);
 * anything else follows the HTTP status.
 */
export function classifyOmegaError(
  status: number,
  body: string,
  headers: Record<string, string | string[] | undefined>,
): UpstreamFailure {
  const payload = parseJsonObject(body);
  const code = typeof payload?.code === 'string' ? payload.code : undefined;
  return failureOfHttpAnswer(classOfCode(code) ?? classOfHttpStatus(status), {
    status,
    headers,
    message: typeof payload?.message === 'string' ? payload.message : undefined,
    upstreamCode: code,
  });
}

/**
 * A `FAILED` task's `output.code` and `output.message` (§8.4) as a failure: classified by the same
 * table; a code it does not know is the upstream's failure to generate (another run may succeed).
 */
export function omegaTaskFailureOf(code: string | undefined, message: string | undefined): UpstreamFailure {
  const [kind, retryable] = classOfCode(code) ?? ['overload', true];
  return {
    kind,
    retryable,
    message: message || 'the upstream task failed',
    upstreamCode: code ?? 'FAILED',
  };
}
