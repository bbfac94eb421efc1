import type { PollableTask } from '../../../tasks/task-poll-hint.service';

/** What a `/bt` action answers: the HTTP status and the family's envelope. */
export interface BetaAnswer {
  httpStatus: number;
  body: Record<string, unknown>;
  /** What the family rules changed, for the client's warning header. */
  warnings?: string[];
  /** The unfinished task a query answered about, for its `Retry-After` (TaskPollHints). */
  openTask?: PollableTask;
}
