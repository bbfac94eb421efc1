import type { Task } from '@gateway/db';

/**
 * Where the console previews a task's output: the admin content route, same origin as the console (its
 * CSP loads media from 'self' only) and opened by the session cookie the browser sends with a
 * `<video>`, `<audio>` or `<img>` request. Null until the task has completed with something to show:
 * a video (its wire may serve it without a result URL) or any task with a result URL.
 */
export function taskContentUrl(task: Pick<Task, 'id' | 'kind' | 'status' | 'resultUrl'>): string | null {
  if (task.status !== 'completed') return null;
  if (task.kind !== 'video' && task.resultUrl === null) return null;
  return `/admin/tasks/${encodeURIComponent(task.id)}/content`;
}

/** Media types a preview may be served as; anything else (HTML, SVG, scripts) goes out as bytes to save. */
const PREVIEWABLE = /^(?:image\/(?:png|jpeg|webp|gif|avif)|video\/[\w.+-]+|audio\/[\w.+-]+)(?:\s*;.*)?$/i;

export function previewableContentType(contentType: string | undefined): string {
  return contentType !== undefined && PREVIEWABLE.test(contentType)
    ? contentType
    : 'application/octet-stream';
}
