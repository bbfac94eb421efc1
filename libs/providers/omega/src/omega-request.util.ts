import { joinBaseUrl } from '@gateway/providers-core';

export const OMEGA_SUBMIT_PATH = '/api/v1/services/aigc/video-generation/video-synthesis';

/** `{base}/api/v1/tasks/{task_id}` (upstreams.md §8.2). */
export function omegaTaskUrl(baseUrl: string, taskId: string): string {
  return joinBaseUrl(baseUrl, `/api/v1/tasks/${encodeURIComponent(taskId)}`);
}

export function omegaSubmitUrl(baseUrl: string): string {
  return joinBaseUrl(baseUrl, OMEGA_SUBMIT_PATH);
}

/**
 * `Authorization: Bearer <key>` on every call; a submission also says it is asynchronous, which the
 * wire requires (without it: 403 AccessDenied, §8.1).
 */
export function omegaHeaders(apiKey: string, submission: boolean): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
  if (submission) {
    headers['content-type'] = 'application/json';
    headers['x-omega-async'] = 'enable';
  }
  return headers;
}
