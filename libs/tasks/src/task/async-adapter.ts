import type { AdapterContext, TokenUsage, UpstreamFailure } from '@gateway/providers-core';
import type { JsonHandle, JsonObject } from './json-value';

/**
 * What a channel type with an asynchronous upstream (submit now, ask later) implements. Like every
 * adapter it is a pure translator: no money, no database, no queue, no sleeping. The step processor
 * owns the loop around it.
 */
export interface AsyncAdapter {
  /**
   * Starts the upstream task. The returned handle is opaque and serialisable; it is stored on the
   * task row before the first poll, so that a re-run never submits twice. Throws UpstreamError when
   * the upstream refuses the submission.
   */
  submit(request: AsyncTaskRequest, context: AsyncAdapterContext): Promise<AsyncSubmission>;
  /** Asks the upstream once how the task is doing. Throws UpstreamError for transport failures only. */
  poll(handle: JsonHandle, context: AsyncAdapterContext): Promise<AsyncPollResult>;
  /**
   * For upstreams that accept a client reference: finds a task an earlier, interrupted run submitted
   * under `submissionKey`. Without it, a submission whose outcome is unknown is never retried.
   */
  findSubmission?(submissionKey: string, context: AsyncAdapterContext): Promise<AsyncSubmission | undefined>;
}

export interface AsyncAdapterContext extends AdapterContext {
  /**
   * Stable for the whole life of one task (its public id): adapters whose upstream takes an
   * idempotency key or a client reference send it, so that findSubmission can look the task up.
   */
  submissionKey: string;
}

export interface AsyncTaskRequest {
  /** Upstream model id (after the channel's model mapping). */
  upstreamModel: string;
  /** The normalised request stored on the task row. */
  request: JsonObject;
}

export interface AsyncSubmission {
  handle: JsonHandle;
}

export type AsyncPollResult = AsyncPending | AsyncCompleted | AsyncFailed;

export interface AsyncPending {
  state: 'pending';
  /** 0–100 when the upstream reports it. */
  progress?: number;
  /** Upstream hint for the next poll; the processor keeps its own bounds. */
  retryAfterMs?: number;
}

export interface AsyncCompleted {
  state: 'completed';
  outputs: AsyncOutput[];
  usage?: AsyncUsage;
}

export interface AsyncFailed {
  state: 'failed';
  failure: UpstreamFailure;
}

/** One produced file. The URL is the upstream's and expires; clients get the gateway's own URL. */
export interface AsyncOutput {
  url: string;
  contentType?: string;
}

/** Usage an asynchronous upstream reports; billing prices whichever dimensions are present. */
export interface AsyncUsage {
  tokens?: TokenUsage;
  images?: number;
  videoSeconds?: number;
  audioSeconds?: number;
}
