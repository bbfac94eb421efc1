import { isPublicTaskId } from '../../../tasks/public-task-id.util';

// The renderer lives in libs/contracts (views/): worker-text's webhook events render videos too.
export { costOf, toVideoObject, videoContentUrl, type VideoTaskColumns } from '@gateway/contracts';

/** The public id prefix of video tasks: a lookup of anything else is a 404 without a query. */
export const VIDEO_TASK_ID_PREFIX = 'video';
/** Every prefix a video task's id may have: the platform's, and `/bt`'s own (beta video made there). */
export const VIDEO_TASK_ID_PREFIXES: readonly string[] = [VIDEO_TASK_ID_PREFIX, 'bt'];

/** Whether `value` has the shape of a video task's public id (the row's kind still decides). */
export function isVideoTaskId(value: string): boolean {
  return VIDEO_TASK_ID_PREFIXES.some((prefix) => isPublicTaskId(value, prefix));
}
