/** request_logs.end_reason of a task that ended without an upstream outcome (deadline, no adapter …). */
export const TASK_ABANDONED_END_REASON = 'task_failed';

/**
 * request_logs.end_reason of a cancelled task: by its client, an operator, or the upstream. Not the
 * channel's failure, so a channel's recent errors (GET /admin/channels) do not count it.
 */
export const TASK_CANCELLED_END_REASON = 'cancelled';

/** The end reason of a task whose hold is released in full. */
export type HoldReleaseReason = typeof TASK_ABANDONED_END_REASON | typeof TASK_CANCELLED_END_REASON;

/** The end reason of a released task, from the status it ended in (a re-run's settlement reads it so). */
export function releaseReasonOf(status: string): HoldReleaseReason {
  return status === 'cancelled' ? TASK_CANCELLED_END_REASON : TASK_ABANDONED_END_REASON;
}
