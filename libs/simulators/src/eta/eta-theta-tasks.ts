import { randomAlphanumeric } from '../random-id.util';
import { ScriptedTask, ScriptedTaskPlan, ScriptedTaskStore } from '../scripted-task.store';
import { ThetaJob } from './eta-theta-request';

/** What a theta task remembers besides its script. */
export interface ThetaTaskFields {
  job: ThetaJob;
  /** The status the last answer showed (a list shows it without moving the task on). */
  status: string;
  updatedAtMs: number;
  /** Set by a DELETE while queued. */
  cancelled?: boolean;
  /** Set by a DELETE of a finished task: the record is gone. */
  deleted?: boolean;
  error?: { code: string; message: string };
  /** Published at the first `succeeded` answer and kept after. */
  videoUrl?: string;
  lastFrameUrl?: string;
}

export type ThetaTask = ScriptedTask<ThetaTaskFields>;

/** Task records are kept 7 days‡ (the query's history; results live 24 hours). */
const RETENTION_MS = 7 * 24 * 3600 * 1000;
const LIST_CAPACITY = 50_000;
const ID_SUFFIX_LENGTH = 5;

/** `cgt-20250101120000-x7k2q`: the creation time, then a short random part (§6.2). */
export function newThetaTaskId(nowMs = Date.now()): string {
  const stamp = new Date(nowMs).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `cgt-${stamp}-${randomAlphanumeric(ID_SUFFIX_LENGTH).toLowerCase()}`;
}

/** The theta tasks of the eta data plane, each visible to the key that created it. */
export class ThetaTaskRegistry {
  private readonly tasks = new ScriptedTaskStore<ThetaTaskFields>({
    newId: () => newThetaTaskId(),
    retentionMs: RETENTION_MS,
  });
  /** Creation order, for the list call (oldest first; bounded like the store). */
  private readonly created: Array<{ owner: string; id: string }> = [];

  create(owner: string, plan: ScriptedTaskPlan, job: ThetaJob, nowMs = Date.now()): ThetaTask {
    const task = this.tasks.create(owner, plan, { job, status: 'queued', updatedAtMs: nowMs }, nowMs);
    if (this.created.length >= LIST_CAPACITY) this.created.shift();
    this.created.push({ owner, id: task.id });
    return task;
  }

  /** The owner's task, unless unknown, another key's, forgotten or deleted. */
  find(owner: string, id: string): ThetaTask | undefined {
    const task = this.tasks.find(owner, id);
    return task && !task.fields.deleted ? task : undefined;
  }

  /** The owner's tasks, newest first. */
  list(owner: string): ThetaTask[] {
    const found: ThetaTask[] = [];
    for (let index = this.created.length - 1; index >= 0; index -= 1) {
      const entry = this.created[index];
      const task = entry.owner === owner ? this.find(owner, entry.id) : undefined;
      if (task) found.push(task);
    }
    return found;
  }

  advance(task: ThetaTask): ReturnType<ScriptedTaskStore<ThetaTaskFields>['advance']> {
    return this.tasks.advance(task);
  }
}
