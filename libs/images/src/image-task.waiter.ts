import {
  UpstreamError,
  type CancellationSignal,
  type JsonHandle,
  type TaskAdapter,
  type TaskAdapterContext,
  type TaskCall,
  type TaskCompleted,
} from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { toClientError } from '@gateway/routing';

export interface TaskWaitLimits {
  /** From the submission until the gateway gives up and answers 504. */
  timeoutMs: number;
  /** Between polls; an upstream's retry hint may lengthen it, never beyond the deadline. */
  pollIntervalMs: number;
}

/** The 504 of a task that was not done by the deadline. */
class TaskDeadlinePassed extends GatewayError {
  constructor(timeoutMs: number) {
    super(
      'upstream_timeout',
      `The upstream did not finish the images within ${Math.round(timeoutMs / 1000)} s; nothing was charged.`,
    );
  }
}

/**
 * Submits an upstream task and polls it within the client's request until it is done. A refused
 * submission throws the UpstreamError (the failover may try the next channel); once the task is
 * submitted its images are this channel's to make, so nothing after throws an UpstreamError: a
 * retryable poll failure is polled again, anything else is the client's error.
 *
 * At the deadline (a 504), or when the request is cancelled, the upstream is asked to cancel where
 * its wire can (not awaited: the answer does not wait for it) and the caller releases the hold. The
 * upstream may still finish the task: its images are then neither delivered nor charged.
 */
export async function waitForTask(
  tasks: TaskAdapter,
  call: TaskCall,
  context: TaskAdapterContext,
  limits: TaskWaitLimits,
): Promise<TaskCompleted> {
  const deadline = Date.now() + limits.timeoutMs;
  const { handle } = await tasks.submit(call, context);
  try {
    return await pollUntilDone(tasks, handle, context, deadline, limits);
  } catch (error) {
    const unfinished = error instanceof TaskDeadlinePassed || context.signal?.aborted === true;
    if (unfinished && tasks.cancel) {
      // Without the request's signal: the request is over, the cancellation must still go out.
      tasks.cancel(handle, { ...context, signal: undefined }).catch((cancelError: unknown) => {
        context.logger.warn('upstream task cancellation failed', { err: cancelError });
      });
    }
    throw error;
  }
}

async function pollUntilDone(
  tasks: TaskAdapter,
  handle: JsonHandle,
  context: TaskAdapterContext,
  deadline: number,
  limits: TaskWaitLimits,
): Promise<TaskCompleted> {
  let waitMs = limits.pollIntervalMs;
  for (;;) {
    const remainingMs = deadline - Date.now();
    if (remainingMs <= 0) throw new TaskDeadlinePassed(limits.timeoutMs);
    await pause(Math.min(waitMs, remainingMs), context.signal);
    const result = await tasks.poll(handle, context).catch((error: unknown) => {
      if (error instanceof UpstreamError && error.failure.retryable) return undefined;
      throw error instanceof UpstreamError ? toClientError(error.failure) : error;
    });
    if (result?.state === 'completed') return result;
    if (result?.state === 'failed') throw toClientError(result.failure);
    waitMs = Math.max(limits.pollIntervalMs, result?.retryAfterMs ?? 0);
  }
}

/** Waits `ms`, or rejects with the cancellation's reason as soon as it aborts. */
function pause(ms: number, signal: CancellationSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
