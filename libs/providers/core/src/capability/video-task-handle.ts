import { isJsonObject } from '../json-object.util';

/**
 * The handle of a video task whose wire answers with a task id only: the id, and what the result is
 * billed as when the query does not say (the seconds and resolution tier submitted).
 */
export type VideoTaskHandle = { taskId: string; seconds: number; resolution: string | null };

/**
 * A stored handle, checked: a row written by another version of the adapter fails loudly.
 * `description` names the handle in the error (`an alpha task handle`).
 */
export function videoTaskHandleOf(handle: unknown, description: string): VideoTaskHandle {
  if (
    isJsonObject(handle) &&
    typeof handle.taskId === 'string' &&
    typeof handle.seconds === 'number' &&
    (typeof handle.resolution === 'string' || handle.resolution === null)
  ) {
    return { taskId: handle.taskId, seconds: handle.seconds, resolution: handle.resolution };
  }
  throw new TypeError(`not ${description}`);
}
