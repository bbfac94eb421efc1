import { randomBytes } from 'node:crypto';
import { ScriptedTask, ScriptedTaskStore } from '../scripted-task.store';
import { GammaOfficialTaskRegistry } from './gamma-official-tasks';
import { GammaSubmission } from './gamma-submission';

/** What a gamma task remembers besides its plan. */
export interface GammaTaskFields {
  submission: GammaSubmission;
  /** `result_host=`: its links point at another host (SSRF tests). */
  resultHost?: string;
  /** `expired_links=`: this many links are handed out already expired before a live one. */
  expiredLinks: number;
  linksIssued: number;
  /** The current result link, kept until it expires (then the next query publishes a fresh one). */
  link?: { url: string; expiresAtMs: number };
  /** When it was first answered PROCESSING. */
  beganAtMs?: number;
  /** A Permanent file's id, made at the first FINISH answer. */
  fileId?: string;
}

export type GammaTask = ScriptedTask<GammaTaskFields>;

/** Tasks are found, and SessionIds remembered, for 3 days (upstreams.md §5.4, §5.5). */
export const GAMMA_RETENTION_MS = 3 * 24 * 3600 * 1000;
const TASK_ID_MARKER = '-AigcVideo-';
const SESSION_CAPACITY = 50_000;

/**
 * The gamma wire's tasks, and the SessionIds that made them: a create with a SessionId the owner
 * already used answers the task it made (idempotency, §5.4). The owner is the SubAppId, so the
 * wire's `TaskId` is `<SubAppId>-AigcVideo-<hex>`‡ around the store's own id.
 */
export class GammaTaskRegistry {
  readonly tasks = new ScriptedTaskStore<GammaTaskFields>({
    newId: () => randomBytes(16).toString('hex'),
    retentionMs: GAMMA_RETENTION_MS,
  });
  private readonly sessions = new Map<string, { id: string; atMs: number }>();
  /** The tasks of the family's official-compatible wire (upstreams.md §5.8). */
  readonly official = new GammaOfficialTaskRegistry();

  /** The owner's task an earlier create of this SessionId made, if it is still remembered. */
  bySession(owner: string, sessionId: string, nowMs = Date.now()): GammaTask | undefined {
    this.forgetOldSessions(nowMs);
    const session = this.sessions.get(sessionKey(owner, sessionId));
    return session === undefined ? undefined : this.tasks.find(owner, session.id, nowMs);
  }

  rememberSession(owner: string, sessionId: string, task: GammaTask): void {
    if (this.sessions.size >= SESSION_CAPACITY)
      this.sessions.delete(this.sessions.keys().next().value as string);
    this.sessions.set(sessionKey(owner, sessionId), { id: task.id, atMs: task.createdAtMs });
  }

  /** The owner's task named by a wire `TaskId`; undefined for another SubAppId's, an unknown or a forgotten one. */
  byTaskId(owner: string, taskId: string): GammaTask | undefined {
    const prefix = `${owner}${TASK_ID_MARKER}`;
    return taskId.startsWith(prefix) ? this.tasks.find(owner, taskId.slice(prefix.length)) : undefined;
  }

  private forgetOldSessions(nowMs: number): void {
    for (const [key, session] of this.sessions) {
      if (nowMs - session.atMs < GAMMA_RETENTION_MS) break;
      this.sessions.delete(key);
    }
  }
}

export function gammaTaskIdOf(task: GammaTask): string {
  return `${task.owner}${TASK_ID_MARKER}${task.id}`;
}

function sessionKey(owner: string, sessionId: string): string {
  return `${owner}\n${sessionId}`;
}
