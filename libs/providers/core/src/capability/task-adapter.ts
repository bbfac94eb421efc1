import type { AdapterContext } from '../adapter-context';
import type { JsonHandle, SerialisableObject } from '../json-value';
import type { UpstreamFailure } from '../upstream-error';
import type { Usage } from '../usage';

/**
 * The task capability, for upstreams that are asynchronous (submit now, ask later). Like every
 * adapter it is a pure translator: no money, no database, no queue, no sleeping. Whoever waits owns
 * the loop around it: the task worker's step processor between delayed jobs, or the gateway within
 * one request (an image route on an asynchronous wire). Members are methods for the reason given on
 * TextAdapter.
 */
export interface TaskAdapter<Credentials = unknown, Settings = unknown> {
  /**
   * Starts the upstream task. The returned handle is opaque and serialisable; it is stored on the
   * task row before the first poll, so that a re-run never submits twice. Throws UpstreamError when
   * the upstream refuses the submission.
   */
  submit(call: TaskCall, context: TaskAdapterContext<Credentials, Settings>): Promise<TaskSubmission>;
  /**
   * True when the upstream de-duplicates submissions by the `submissionKey` the adapter sends (an
   * idempotency key, a session id): a second submit under the same key returns the first task. The
   * step processor then resubmits after an interrupted submission instead of failing the task.
   */
  readonly idempotentSubmit?: boolean;
  /** Asks the upstream once how the task is doing. Throws UpstreamError for transport failures only. */
  poll(handle: JsonHandle, context: TaskAdapterContext<Credentials, Settings>): Promise<TaskPollResult>;
  /**
   * Asks the upstream once how each of several tasks of one channel is doing, in one call, for wires
   * that query tasks in batches. Answers one result per handle, in the handles' order; a task the
   * upstream does not list is answered pending (its deadline ends it). Throws UpstreamError when the
   * batch query itself fails. A type that has it is polled by a batch poller (one upstream call per
   * channel per poll cycle), so the per-task step only submits its tasks and reconciles them at their
   * deadline; `poll` stays for that single question.
   */
  pollMany?(
    handles: readonly JsonHandle[],
    context: AdapterContext<Credentials, Settings>,
  ): Promise<TaskPollResult[]>;
  /**
   * Asks the upstream to stop the task, where the wire can. Resolving means the upstream holds no
   * running task any more, so a client's cancel is then free (TaskCanceller, which first polls, since a
   * wire's cancel may also delete a finished task's record); a refusal throws UpstreamError.
   */
  cancel?(handle: JsonHandle, context: TaskAdapterContext<Credentials, Settings>): Promise<void>;
  /**
   * For upstreams that accept a client reference: finds a task an earlier, interrupted run submitted
   * under `submissionKey`. Without it (or idempotentSubmit), a submission whose outcome is unknown is
   * never retried.
   */
  findSubmission?(
    submissionKey: string,
    context: TaskAdapterContext<Credentials, Settings>,
  ): Promise<TaskSubmission | undefined>;
}

export interface TaskAdapterContext<Credentials = unknown, Settings = unknown> extends AdapterContext<
  Credentials,
  Settings
> {
  /**
   * Stable for the whole life of one task (its public id): adapters whose upstream takes an
   * idempotency key or a client reference send it, so that findSubmission can look the task up.
   */
  submissionKey: string;
}

export interface TaskCall {
  /** Upstream model id (after the channel's model mapping). */
  upstreamModel: string;
  /** The request in the adapter's own terms, as stored on the task row. */
  request: SerialisableObject;
}

export interface TaskSubmission {
  handle: JsonHandle;
}

export type TaskPollResult = TaskPending | TaskCompleted | TaskFailed;

export interface TaskPending {
  state: 'pending';
  /** 0–100 when the upstream reports it. */
  progress?: number;
  /** Where the upstream says the task is, when its wire tells waiting from running. */
  phase?: 'queued' | 'processing';
  /** Upstream hint for the next poll; the caller keeps its own bounds. */
  retryAfterMs?: number;
}

export interface TaskCompleted {
  state: 'completed';
  outputs: TaskOutput[];
  usage?: Usage;
  warnings: string[];
}

export interface TaskFailed {
  state: 'failed';
  failure: UpstreamFailure;
  /**
   * The upstream reports the task cancelled. On a wire with a cancel this is most often the gateway's
   * own cancel, seen by a poll that ran between the upstream's cancel and the canceller's transition:
   * the row then ends `cancelled` (its hold released in full), as the canceller would have ended it.
   */
  cancelled?: true;
}

/**
 * One produced file: the upstream's URL (it expires; clients get the gateway's own), its bytes when
 * the wire sends the file inline (an image task's Base64 answer), or both when the wire sends both.
 */
export type TaskOutput = {
  contentType?: string;
  /**
   * What the wire says about this output besides its bytes, in the wire's own terms (a music clip's
   * id, title and duration), for a family route that answers in the wire's shape. Never billed.
   */
  detail?: SerialisableObject;
} & ({ url: string; bytes?: Buffer } | { url?: undefined; bytes: Buffer });
