import { randomDigits } from '../random-id.util';
import { ScriptedTask, ScriptedTaskStore } from '../scripted-task.store';

/** What a mu task remembers of its submission. */
export interface MuTaskFields {
  model: string;
  duration: number;
  resolution: string;
  /** Set when the task first answers `Success`: the file the retrieve call serves. */
  fileId?: string;
}

/** Tasks and files are kept a day (the wire's history; the download links live about 9 hours). */
const RETENTION_MS = 24 * 3600 * 1000;
const TASK_ID_DIGITS = 15;
/** Bound on remembered file ids, like the task store's. */
const FILE_CAPACITY = 50_000;

/** A decimal-digit string with no leading zero, as the wire's task and file ids are. */
export function newMuId(): string {
  return `${1 + Math.floor(Math.random() * 9)}${randomDigits(TASK_ID_DIGITS - 1)}`;
}

/** The mu wire's tasks, and its result files by id (each names the task that made it). */
export class MuTaskRegistry {
  readonly tasks = new ScriptedTaskStore<MuTaskFields>({ newId: newMuId, retentionMs: RETENTION_MS });
  private readonly taskIdByFileId = new Map<string, string>();

  /** The file of a finished task, created at its first success answer. */
  fileOf(taskId: string, fields: MuTaskFields): string {
    if (fields.fileId === undefined) {
      fields.fileId = newMuId();
      if (this.taskIdByFileId.size >= FILE_CAPACITY) {
        this.taskIdByFileId.delete(this.taskIdByFileId.keys().next().value as string);
      }
      this.taskIdByFileId.set(fields.fileId, taskId);
    }
    return fields.fileId;
  }

  /** The owner's task that made a file, or undefined (an unknown file, another owner's, a forgotten task). */
  taskOfFile(owner: string, fileId: string): ScriptedTask<MuTaskFields> | undefined {
    const taskId = this.taskIdByFileId.get(fileId);
    return taskId === undefined ? undefined : this.tasks.find(owner, taskId);
  }
}
