import { upstreamFailureOfReason, type UpstreamErrorKind } from '@gateway/providers-core';

export interface VideoError {
  code: string;
  message: string;
}

/**
 * The reason the task worker writes when a task passes its deadline (DEADLINE_EXCEEDED in
 * libs/tasks' step processor, which the gateway does not load to read one string; a unit test keeps
 * the two equal).
 */
export const DEADLINE_REASON = 'deadline exceeded';

/** What a client is told per upstream error kind; only refusals of the request itself show the upstream's words. */
const CODE_BY_KIND: Readonly<Record<UpstreamErrorKind, string>> = {
  content_policy: 'content_policy_violation',
  bad_request: 'invalid_request',
  rate_limit: 'upstream_error',
  overload: 'upstream_error',
  auth: 'upstream_error',
  insufficient_balance: 'upstream_error',
  timeout: 'upstream_error',
};

/**
 * The `error` of a failed video, from the row's failure reason: `<kind>: <message>` when the upstream
 * ended the task (the step processor writes it so), or the gateway's own reason (a deadline, a lost
 * submission, a channel removed).
 */
export function videoErrorOf(failureReason: string | null): VideoError {
  const reason = failureReason ?? 'the task failed';
  if (reason.startsWith(DEADLINE_REASON)) {
    return {
      code: 'deadline_exceeded',
      message: 'The video did not finish before its deadline; nothing was charged.',
    };
  }
  const failure = upstreamFailureOfReason(reason);
  if (!failure) return { code: 'task_failed', message: `The video failed: ${reason}; nothing was charged.` };
  const { kind } = failure;
  const upstreamWords = kind === 'content_policy' || kind === 'bad_request';
  return {
    code: CODE_BY_KIND[kind],
    message: upstreamWords ? failure.message : 'The upstream could not make the video; nothing was charged.',
  };
}
