import { randomDigits } from '../random-id.util';
import { ScriptedError } from '../scripted-error';

/** How a task was scripted at submission (directives `polls`, `task_ms`, `error_after`, `block`, `finish`). */
export interface BetaTaskPlan {
  /** Result queries answered pending before the result. */
  pendingPolls: number;
  /** Not ready before this time, whatever the query count. */
  readyAtMs: number;
  /** A failure answered once `after` pending answers have been given. */
  failure?: { scripted: ScriptedError; after: number };
  /** The output image is rejected (a content-policy failure) when the task would be done. */
  outputBlock?: ScriptedError;
  /** `done`, or the word `finish=` scripts: `expired`, `not_found`, or one outside the §4.5 table. */
  terminalStatus: string;
  urlLifetimeSeconds: number;
}

/** What a task makes: images of a size (how many, the upstream decides), or a video. */
export type BetaTaskOutput =
  { kind: 'image'; width: number; height: number; imageCount: number } | { kind: 'video' };

export interface BetaTask {
  id: string;
  /** The credential that submitted it: only the same credential can read it. */
  owner: string;
  reqKey: string;
  createdAtMs: number;
  output: BetaTaskOutput;
  plan: BetaTaskPlan;
  pendingAnswers: number;
  /** Result links, published at the first `done` answer that asked for them and kept after. */
  imageUrls?: string[];
  /** The video's link, published at the first `done` answer and kept after. */
  videoUrl?: string;
}

export type BetaTaskNewFields = Pick<BetaTask, 'owner' | 'reqKey' | 'output' | 'plan'>;

/** The state a query reads (upstreams.md §4.5): `in_queue`, `generating`, or the terminal word. */
export type BetaTaskProgress = { status: string } | { failure: ScriptedError };

/** Task records are kept 12 hours (§4.5). */
export const TASK_RETENTION_MS = 12 * 3600 * 1000;
const CAPACITY = 50_000;
const TASK_ID_DIGITS = 19;

/** The asynchronous tasks of the beta wire, oldest first (a Map keeps insertion order). */
export class BetaTaskStore {
  private readonly tasks = new Map<string, BetaTask>();

  create(fields: BetaTaskNewFields, nowMs = Date.now()): BetaTask {
    this.forgetOld(nowMs);
    const task: BetaTask = { ...fields, id: newTaskId(), createdAtMs: nowMs, pendingAnswers: 0 };
    this.tasks.set(task.id, task);
    return task;
  }

  /** The owner's task, or undefined for an unknown id, another owner's task or a forgotten one. */
  find(owner: string, id: string, nowMs = Date.now()): BetaTask | undefined {
    this.forgetOld(nowMs);
    const task = this.tasks.get(id);
    return task?.owner === owner ? task : undefined;
  }

  /**
   * Answers one query and moves the task on: pending (`in_queue` the first time, `generating` after)
   * until both the scripted polls and time have passed, then the terminal state. A scripted failure
   * keeps the task pending until its turn, then fails every later query too.
   */
  advance(task: BetaTask, nowMs = Date.now()): BetaTaskProgress {
    const { plan } = task;
    if (plan.failure && task.pendingAnswers >= plan.failure.after) return { failure: plan.failure.scripted };
    const pending =
      plan.failure !== undefined || task.pendingAnswers < plan.pendingPolls || nowMs < plan.readyAtMs;
    if (pending) {
      const status = task.pendingAnswers === 0 ? 'in_queue' : 'generating';
      task.pendingAnswers += 1;
      return { status };
    }
    if (plan.outputBlock) return { failure: plan.outputBlock };
    return { status: plan.terminalStatus };
  }

  private forgetOld(nowMs: number): void {
    for (const [id, task] of this.tasks) {
      if (this.tasks.size < CAPACITY && nowMs - task.createdAtMs < TASK_RETENTION_MS) break;
      this.tasks.delete(id);
    }
  }
}

/** A decimal-digit string with no leading zero, as the wire's task ids are. */
function newTaskId(): string {
  return `${1 + Math.floor(Math.random() * 9)}${randomDigits(TASK_ID_DIGITS - 1)}`;
}
