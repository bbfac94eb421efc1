import { randomDigits } from '../random-id.util';
import { ScriptedTask, ScriptedTaskStore } from '../scripted-task.store';
import { GammaOfficialSubmission } from './gamma-official-submission';

/** What a §5.8 task remembers besides its plan. */
export interface GammaOfficialTaskFields {
  submission: GammaOfficialSubmission;
  /** `result_host=`: its links point at another host (SSRF tests). */
  resultHost?: string;
  /** `expired_links=`: this many links are handed out already expired before a live one. */
  expiredLinks: number;
  linksIssued: number;
  /** The current result link, kept until it expires (then the next query publishes a fresh one). */
  link?: { url: string; expiresAtMs: number };
  videoId?: string;
  /** When the task last changed state, for `updated_at`. */
  updatedAtMs: number;
}

export type GammaOfficialTask = ScriptedTask<GammaOfficialTaskFields>;

/** Result URLs are kept 30 days (upstreams.md §5.8), and so are the tasks here. */
export const GAMMA_OFFICIAL_RETENTION_MS = 30 * 24 * 3600 * 1000;
const TASK_ID_DIGITS = 18;
const EXTERNAL_ID_CAPACITY = 50_000;

/**
 * The tasks of the §5.8 wire, owned by the AccessKey that created them. An `external_task_id` is
 * unique per account‡: a create repeating one answers the task it made, which is what lets the
 * gateway resubmit an interrupted create.
 */
export class GammaOfficialTaskRegistry {
  readonly tasks = new ScriptedTaskStore<GammaOfficialTaskFields>({
    newId: () => randomDigits(TASK_ID_DIGITS),
    retentionMs: GAMMA_OFFICIAL_RETENTION_MS,
  });
  private readonly externalIds = new Map<string, string>();

  byExternalId(owner: string, externalTaskId: string): GammaOfficialTask | undefined {
    const id = this.externalIds.get(externalKey(owner, externalTaskId));
    return id === undefined ? undefined : this.tasks.find(owner, id);
  }

  rememberExternalId(owner: string, externalTaskId: string, task: GammaOfficialTask): void {
    if (this.externalIds.size >= EXTERNAL_ID_CAPACITY) {
      this.externalIds.delete(this.externalIds.keys().next().value as string);
    }
    this.externalIds.set(externalKey(owner, externalTaskId), task.id);
  }
}

function externalKey(owner: string, externalTaskId: string): string {
  return `${owner}\n${externalTaskId}`;
}
