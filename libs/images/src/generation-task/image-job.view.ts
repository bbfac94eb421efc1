import type { ImageDataView, ImageTaskErrorView, ImageTaskView } from '@gateway/contracts';
import type { Task } from '@gateway/db';
import { GatewayError } from '@gateway/errors';
import type { ImageResponseFormat } from '@gateway/providers-core';
import { storedFileUrl, type ObjectStore } from '@gateway/storage';
import { IMAGE_JOB_TASK_PREFIX } from './image-job-request';
import { fromStoredJobResult } from './image-job-result';

/**
 * Where the view of a completed job finds its images, and the format to render them in; without the
 * object store (a webhook event), as URLs whatever the request asked for.
 */
export interface ImageTaskRendering {
  objects?: ObjectStore;
  baseUrl: string;
  format: ImageResponseFormat;
}

/** The format a job's request asked for (`url` once its stored request is cleared). */
export function responseFormatOfJob(task: Pick<Task, 'request'>): ImageResponseFormat {
  const { request } = task;
  const format =
    typeof request === 'object' && request !== null && !Array.isArray(request)
      ? (request as Record<string, unknown>)['responseFormat']
      : undefined;
  return format === 'b64' ? 'b64' : 'url';
}

/**
 * An image job's task object, as `GET /v1/images/generations/{id}` answers it and its webhook events
 * carry it. Completed, its `data[]` is what the synchronous answer would have been:
 * the images are kept in the object store whatever the client asked for, and rendered here as the
 * gateway's URL or as Base64 read back from the store (an image whose retention ended is gone: 410).
 */
export async function toImageJobView(task: Task, rendering: ImageTaskRendering): Promise<ImageTaskView> {
  const view: ImageTaskView = {
    id: task.id,
    object: 'image.task',
    model: task.model,
    status: task.status,
    created_at: unixSeconds(task.createdAt),
    completed_at: task.completedAt ? unixSeconds(task.completedAt) : null,
    error: task.status === 'failed' || task.status === 'cancelled' ? errorOf(task.failureReason) : null,
    cost_micros: costOf(task),
  };
  const result = task.status === 'completed' ? fromStoredJobResult(task.upstreamHandle) : undefined;
  if (!result) return view;
  const data = await Promise.all(result.images.map((image) => imageData(image, rendering)));
  return { ...view, created: result.created, data };
}

async function imageData(
  image: { objectId: string; revisedPrompt?: string },
  { objects, baseUrl, format }: ImageTaskRendering,
): Promise<ImageDataView> {
  const revised = image.revisedPrompt === undefined ? {} : { revised_prompt: image.revisedPrompt };
  if (format !== 'b64' || !objects) return { url: storedFileUrl(baseUrl, image.objectId), ...revised };
  const stored = await objects.get(image.objectId);
  if (!stored) {
    throw new GatewayError('not_found', 'The images of this task are no longer kept.', { param: 'id' });
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stored.body) chunks.push(chunk as Buffer);
  return { b64_json: Buffer.concat(chunks).toString('base64'), ...revised };
}

/**
 * worker-image writes `<code>: <message>`, the synchronous route's error for the same failure (see
 * ImageJobStep); the deadline and anything else are the task's own failure.
 */
function errorOf(failureReason: string | null): ImageTaskErrorView {
  const reason = failureReason ?? 'the task failed';
  const separator = reason.indexOf(': ');
  if (separator > 0 && /^[a-z_]+$/.test(reason.slice(0, separator))) {
    return { code: reason.slice(0, separator), message: reason.slice(separator + 2) };
  }
  return { code: 'task_failed', message: `The images were not made: ${reason}; nothing was charged.` };
}

/** The captured cost once settled; a task that failed cost nothing. */
function costOf(task: Task): string | null {
  if (task.costMicros !== null) return task.costMicros.toString();
  return task.status === 'failed' || task.status === 'cancelled' ? '0' : null;
}

function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/** The `data` of an image job's webhook event (libs/webhooks' renderer for `image:img`): its GET, images as URLs. */
export function imageJobEventData(task: Task, baseUrl: string): Promise<Record<string, unknown>> {
  return toImageJobView(task, { baseUrl, format: 'url' }) as unknown as Promise<Record<string, unknown>>;
}

/** EventDataRenderer's overrides for image jobs (keyed by kind and id prefix), for the delivery worker. */
export const IMAGE_JOB_EVENT_RENDERERS = { [`image:${IMAGE_JOB_TASK_PREFIX}`]: imageJobEventData };
