import { UpstreamError } from '../upstream-error';
import type { TaskFailed } from './task-adapter';

/**
 * A task the upstream reported finished whose answer holds no output (no file, no URL, no image): the
 * upstream misbehaved, not the request, so the failure is a retryable overload that another run or
 * channel may get past. `status` is the upstream's own word for the finished state.
 */
export function failedForMissingOutput(status: string, message: string): TaskFailed {
  return { state: 'failed', failure: { kind: 'overload', retryable: true, message, upstreamCode: status } };
}

/**
 * The outcome of a poll whose error answer may be about the task: one that says something about it
 * (not found, refused, unauthorised) fails it; one that says nothing about it (a rate limit, a
 * timeout, a retryable overload) and any error that is not an upstream answer are thrown again, for
 * the caller to ask later.
 */
export function failedOrRethrown(error: unknown): TaskFailed {
  if (!(error instanceof UpstreamError)) throw error;
  const { kind, retryable } = error.failure;
  if (kind === 'rate_limit' || kind === 'timeout' || (kind === 'overload' && retryable)) throw error;
  return { state: 'failed', failure: error.failure };
}
