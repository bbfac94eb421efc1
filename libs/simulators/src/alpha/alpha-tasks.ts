import { randomDigits } from '../random-id.util';
import { ScriptedTaskStore } from '../scripted-task.store';
import { AlphaSubmission } from './alpha-submission';

/** What an alpha task remembers of its submission. */
export interface AlphaTaskFields {
  submission: AlphaSubmission;
  credits: number;
  /** Success answers still to hand out links that are already expired (`expired_links=`). */
  expiredLinksLeft: number;
  /** The `err_code` of a task scripted to end `finish=failed` (`code=`, else InternalServiceFailure). */
  finishErrCode: string;
  /** The creation's id, made at the first success answer and kept. */
  creationId?: string;
}

/** Task records are kept a week by project convention (§3 does not say); result links live 24 hours. */
const ALPHA_TASK_RETENTION_MS = 7 * 24 * 3600 * 1000;
const TASK_ID_DIGITS = 18;

/** A decimal-digit string of 18 digits with no leading zero, as the wire's task ids are (§3.3). */
export function newAlphaId(): string {
  return `${1 + Math.floor(Math.random() * 9)}${randomDigits(TASK_ID_DIGITS - 1)}`;
}

export function newAlphaTaskStore(): ScriptedTaskStore<AlphaTaskFields> {
  return new ScriptedTaskStore<AlphaTaskFields>({ newId: newAlphaId, retentionMs: ALPHA_TASK_RETENTION_MS });
}
