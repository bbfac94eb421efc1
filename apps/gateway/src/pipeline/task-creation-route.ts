import type { ResolvedKey } from '@gateway/auth';
import type { TakeHoldInput } from '@gateway/billing';

/** What a task's hold names besides the caller: its id (`requestId`), model, route, amount, lifetime. */
export type TaskHold = Omit<TakeHoldInput, 'accountId' | 'keyId'>;

/** A task request read, checked and priced: what the pipeline admits and holds before the row is written. */
export interface PlannedTask {
  readonly hold: TaskHold;
  /** What a client whose balance cannot cover the hold can change. */
  readonly holdHint: string;
}

/** The answer of an earlier task under the same Idempotency-Key: nothing more is admitted or held. */
export interface ReplayedTask<Created> {
  readonly replayed: Created;
}

/** A task the route created (or found already created under its Idempotency-Key), and its id. */
export interface TaskCreated<Created> {
  readonly created: Created;
  readonly taskId: string;
}

/**
 * What one task creation route contributes (video, music, `/bt`, theta, alpha, gamma): how to read and
 * price the request, and how to write and start the task once its price is held. The pipeline does
 * the rest, once for all of them (GenerationPipeline.createTask): admission, the hold, the refusal's
 * log row, the request's headers, the governance settlement. Built per request.
 */
export interface TaskCreationRoute<Plan extends PlannedTask, Created> {
  readonly key: ResolvedKey;
  /** The route the refusal's log row names. */
  readonly route: string;
  /** The model, once read: a refusal's log row names it. */
  modelOfRefused(): string | undefined;
  plan(): Promise<Plan | ReplayedTask<Created>>;
  /** Writes and starts the task; from here every path ends its hold (its settlement, or a release). */
  create(plan: Plan): Promise<TaskCreated<Created>>;
}

export function isReplayed<Created>(
  planned: PlannedTask | ReplayedTask<Created>,
): planned is ReplayedTask<Created> {
  return 'replayed' in planned;
}
