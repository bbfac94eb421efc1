import { randomUUID } from 'node:crypto';
import { ScriptedTaskStore } from '../scripted-task.store';
import { LambdaSubmission } from './lambda-submission';

/** One clip a music task makes: its id (made at submission, kept) and its length. */
export interface LambdaClip {
  id: string;
  title: string;
  durationSeconds: number;
}

/** What a lambda task remembers of its submission and of the answers it gave. */
export interface LambdaTaskFields {
  submission: LambdaSubmission;
  /** Music: the clips; lyrics: one entry, the lyrics' id and title. */
  clips: LambdaClip[];
  /** Queries still to answer `UNKNOWN` before the task goes on (`unknown=`). */
  unknownLeft: number;
  /** When the task was first answered IN_PROGRESS. */
  startedAtMs?: number;
}

/** Two clips per song, as the wire normally makes (§9.4); their lengths are fixed so usage is known. */
export const CLIP_DURATIONS_SECONDS = [180.5, 120.25];
/** Task records are kept a week by project convention (§9 does not say). */
const LAMBDA_TASK_RETENTION_MS = 7 * 24 * 3600 * 1000;

export function newLambdaTaskStore(): ScriptedTaskStore<LambdaTaskFields> {
  return new ScriptedTaskStore<LambdaTaskFields>({
    newId: randomUUID,
    retentionMs: LAMBDA_TASK_RETENTION_MS,
  });
}

/** The clips a submission will make: a song's two, or the lyrics' one entry. */
export function clipsOf(submission: LambdaSubmission): LambdaClip[] {
  const title = submission.title || (submission.action === 'lyrics' ? 'Untitled lyrics' : 'Untitled');
  if (submission.action === 'lyrics') return [{ id: randomUUID(), title, durationSeconds: 0 }];
  return CLIP_DURATIONS_SECONDS.map((durationSeconds) => ({ id: randomUUID(), title, durationSeconds }));
}
