import { Directives } from './directives';
import { ScriptedError, scriptedErrorOf } from './scripted-error';

/**
 * How an asynchronous task was scripted at submission: `polls=` and `task_ms=` delay its end,
 * `error=<class>` with `error_after=<n>` fails it after n pending answers, `block=output` fails it
 * with a moderation verdict when it would be done, `finish=` names another terminal word of the wire,
 * `url_ttl=` sets its result links' lifetime and `result_host=` their host.
 */
export interface ScriptedTaskPlan {
  pendingPolls: number;
  readyAtMs: number;
  failure?: { scripted: ScriptedError; after: number };
  outputBlock?: ScriptedError;
  /** A terminal word other than success, as the wire spells it (`finish=`). */
  finish?: string;
  urlLifetimeSeconds: number;
  /** `result_host=`: its result links point at this host[:port] instead of the simulator (SSRF tests). */
  resultHost?: string;
}

export function scriptedTaskPlanOf(
  directives: Directives,
  defaultUrlLifetimeSeconds: number,
  nowMs = Date.now(),
): ScriptedTaskPlan {
  const scripted = scriptedErrorOf(directives);
  const plan: ScriptedTaskPlan = {
    pendingPolls: directives.polls ?? 0,
    readyAtMs: nowMs + (directives.taskMs ?? 0),
    urlLifetimeSeconds: directives.urlTtlSeconds ?? defaultUrlLifetimeSeconds,
  };
  if (scripted && directives.errorAfter !== undefined) {
    plan.failure = { scripted, after: directives.errorAfter };
  } else if (directives.block === 'output') {
    plan.outputBlock = {
      errorClass: 'content_policy',
      hangMs: 0,
      ...(directives.code === undefined ? {} : { code: directives.code }),
    };
  }
  if (directives.finish !== undefined) plan.finish = directives.finish;
  if (directives.resultHost !== undefined) plan.resultHost = directives.resultHost;
  return plan;
}

export interface ScriptedTask<Fields> {
  id: string;
  /** The credential that submitted it: only the same credential sees it. */
  owner: string;
  createdAtMs: number;
  plan: ScriptedTaskPlan;
  /** Pending answers given so far. */
  pendingAnswers: number;
  /** When the task was first answered past pending (its end time on the wire). */
  endedAtMs?: number;
  fields: Fields;
}

/**
 * What one query finds: still pending (with how many pending answers came before, for wires that
 * step through several waiting words), failed as scripted, or ended: a success, or `finish=`'s word.
 */
export type ScriptedTaskStep =
  | { state: 'pending'; answered: number }
  | { state: 'failed'; scripted: ScriptedError }
  | { state: 'ended'; finish?: string };

export interface ScriptedTaskStoreOptions {
  newId(): string;
  retentionMs: number;
}

const CAPACITY = 50_000;

/** The asynchronous tasks of one wire, oldest first (a Map keeps insertion order). */
export class ScriptedTaskStore<Fields> {
  private readonly tasks = new Map<string, ScriptedTask<Fields>>();

  constructor(private readonly options: ScriptedTaskStoreOptions) {}

  create(owner: string, plan: ScriptedTaskPlan, fields: Fields, nowMs = Date.now()): ScriptedTask<Fields> {
    this.forgetOld(nowMs);
    const task: ScriptedTask<Fields> = {
      id: this.options.newId(),
      owner,
      createdAtMs: nowMs,
      plan,
      pendingAnswers: 0,
      fields,
    };
    this.tasks.set(task.id, task);
    return task;
  }

  /** The owner's task, or undefined for an unknown id, another owner's task or a forgotten one. */
  find(owner: string, id: string, nowMs = Date.now()): ScriptedTask<Fields> | undefined {
    this.forgetOld(nowMs);
    const task = this.tasks.get(id);
    return task?.owner === owner ? task : undefined;
  }

  /**
   * Answers one query and moves the task on: pending until both the scripted polls and time have
   * passed, then its end. A scripted failure keeps the task pending until its turn, then fails every
   * later query too.
   */
  advance(task: ScriptedTask<Fields>, nowMs = Date.now()): ScriptedTaskStep {
    const { plan } = task;
    if (plan.failure && task.pendingAnswers >= plan.failure.after) {
      task.endedAtMs ??= nowMs;
      return { state: 'failed', scripted: plan.failure.scripted };
    }
    const pending =
      plan.failure !== undefined || task.pendingAnswers < plan.pendingPolls || nowMs < plan.readyAtMs;
    if (pending) {
      const answered = task.pendingAnswers;
      task.pendingAnswers += 1;
      return { state: 'pending', answered };
    }
    task.endedAtMs ??= nowMs;
    if (plan.outputBlock) return { state: 'failed', scripted: plan.outputBlock };
    return plan.finish === undefined ? { state: 'ended' } : { state: 'ended', finish: plan.finish };
  }

  private forgetOld(nowMs: number): void {
    for (const [id, task] of this.tasks) {
      if (this.tasks.size < CAPACITY && nowMs - task.createdAtMs < this.options.retentionMs) break;
      this.tasks.delete(id);
    }
  }
}
