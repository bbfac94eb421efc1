import { upstreamFailureOfReason, type TaskOutput, type UpstreamFailure } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { toClientError } from '@gateway/routing';

/** The business code of an output-side content block (§4.6), for a failure read back from a task row. */
const OUTPUT_BLOCK_CODE = '50511';

/**
 * An upstream failure as the `/bt` client sees it: the gateway's error for its kind, carrying the
 * upstream's business code where the failure is about the request itself (an invalid parameter, a
 * content block). A channel's own trouble (its credentials, its balance) keeps the gateway's code.
 */
export function betaClientError(failure: UpstreamFailure): GatewayError {
  const error = toClientError(failure);
  const requestsOwn = failure.kind === 'bad_request' || failure.kind === 'content_policy';
  if (!requestsOwn || failure.upstreamCode === undefined) return error;
  return new GatewayError(error.code, error.message, {
    ...error.options,
    upstreamCode: failure.upstreamCode,
  });
}

/**
 * The error a failed task row answers with. Its reason is `<kind>: <message>` when the upstream ended
 * it (the step processor writes it so), or the gateway's own reason (a deadline, a lost submission).
 */
export function failedTaskError(failureReason: string | null): GatewayError {
  const failure = upstreamFailureOfReason(failureReason);
  if (failure?.kind === 'content_policy' || failure?.kind === 'bad_request') {
    return betaClientError({
      ...failure,
      upstreamCode: failure.kind === 'content_policy' ? OUTPUT_BLOCK_CODE : undefined,
    });
  }
  return new GatewayError('upstream_unavailable', `The task failed: ${failureReason ?? 'the task failed'}.`);
}

/**
 * `data` of a done image task as §4.4 writes it: every image in `binary_data_base64`, and their URLs in
 * `image_urls` only when the query's `req_json` set `return_url` (else `null`).
 */
export function doneImageData(outputs: readonly TaskOutput[], returnUrl: boolean): Record<string, unknown> {
  return {
    status: 'done',
    binary_data_base64: outputs.flatMap((output) => (output.bytes ? [output.bytes.toString('base64')] : [])),
    image_urls: returnUrl ? outputs.flatMap((output) => (output.url ? [output.url] : [])) : null,
  };
}
