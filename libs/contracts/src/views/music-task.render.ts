import {
  isLambdaTaskRequest,
  LAMBDA_CLIP_FILES,
  LAMBDA_STATUS,
  type LambdaClipFile,
} from '@gateway/dialects';
import { isJsonObject, type TaskOutput } from '@gateway/providers-core';
import { costOf } from './video-object.render';

/**
 * The columns a music task's view is made of (a task row's), spelt out: contracts know no Prisma.
 */
export interface MusicTaskColumns {
  id: string;
  status: string;
  progress: number;
  request: unknown;
  upstreamHandle: unknown;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
  /** What the task's settlement captured (micros); absent until settled, and on listings that omit it. */
  costMicros?: bigint | null;
}

/** The clip fields shown as the wire wrote them; its URLs are replaced by the gateway's own. */
const CLIP_FIELDS = ['id', 'title', 'status', 'major_model_version', 'model_name', 'metadata'] as const;

/** Where the gateway serves one file of one clip (GET /lambda/content/{id}/{clipId}/{file}). */
export function musicContentUrl(
  baseUrl: string,
  taskId: string,
  clipId: string,
  file: LambdaClipFile,
): string {
  return `${baseUrl}/lambda/content/${taskId}/${encodeURIComponent(clipId)}/${file}`;
}

/**
 * A music task as `GET /lambda/fetch/{id}` and `POST /lambda/fetch` answer it (upstreams.md §9.4),
 * with the gateway's task id. The status, progress, times and failure come from the row: `NOT_START`
 * until worker-video claims it, `SUBMITTED` until the upstream accepted it, `IN_PROGRESS`, then
 * `SUCCESS` or `FAILURE` (a cancelled task too, `fail_reason` saying so). `start_time` is null: the
 * gateway does not record when the upstream started. The clips (or lyrics) are those a completed
 * task's upstream shows now (`outputs`), each URL the gateway's content URL; before completion, or
 * when the upstream could not be asked, a song has no clips (`[]`) and lyrics are null.
 */
export function toLambdaTaskView(
  task: MusicTaskColumns,
  outputs: readonly TaskOutput[] | undefined,
  baseUrl: string,
): Record<string, unknown> {
  const action = isLambdaTaskRequest(task.request) ? task.request.action : 'music';
  return {
    task_id: task.id,
    action: action.toUpperCase(),
    status: statusWordOf(task),
    fail_reason: failReasonOf(task),
    submit_time: unixSeconds(task.createdAt),
    start_time: null,
    finish_time: finishTimeOf(task),
    progress: `${task.progress}%`,
    data:
      action === 'lyrics'
        ? lyricsOf(outputs?.[0])
        : (outputs ?? []).flatMap((output) => clipOf(output, task.id, baseUrl)),
    ...costOf(task.costMicros),
  };
}

function statusWordOf(task: MusicTaskColumns): string {
  switch (task.status) {
    case 'queued':
      return LAMBDA_STATUS.notStarted;
    case 'processing':
      return task.upstreamHandle === null ? LAMBDA_STATUS.submitted : LAMBDA_STATUS.inProgress;
    case 'completed':
      return LAMBDA_STATUS.success;
    default:
      return LAMBDA_STATUS.failure;
  }
}

function failReasonOf(task: MusicTaskColumns): string {
  if (task.status === 'failed') return task.failureReason ?? 'the task failed';
  if (task.status === 'cancelled') return task.failureReason ?? 'cancelled';
  return '';
}

function finishTimeOf(task: MusicTaskColumns): number | null {
  if (task.status === 'completed') return unixSeconds(task.completedAt ?? task.updatedAt);
  if (task.status === 'failed' || task.status === 'cancelled') return unixSeconds(task.updatedAt);
  return null;
}

/** One clip as the upstream described it, its files at the gateway; an output without an id is none. */
function clipOf(output: TaskOutput, taskId: string, baseUrl: string): Record<string, unknown>[] {
  const detail = output.detail;
  if (!detail || typeof detail.id !== 'string' || detail.id === '') return [];
  const clip: Record<string, unknown> = {};
  for (const field of CLIP_FIELDS) {
    if (detail[field] !== undefined) clip[field] = detail[field];
  }
  for (const [file, field] of Object.entries(LAMBDA_CLIP_FILES) as Array<[LambdaClipFile, string]>) {
    const upstreamUrl = detail[field];
    clip[field] =
      typeof upstreamUrl === 'string' && upstreamUrl !== ''
        ? musicContentUrl(baseUrl, taskId, detail.id, file)
        : '';
  }
  return [clip];
}

/** The lyrics object of §9.4: `{id, status, title, text}`. */
function lyricsOf(output: TaskOutput | undefined): Record<string, unknown> | null {
  if (!output?.detail || !isJsonObject(output.detail)) return null;
  const { id, status, title } = output.detail;
  return { id, status, title, text: output.bytes?.toString('utf8') ?? '' };
}

function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/** Every file URL of a completed music task's clips, the gateway's own (for the neutral task object). */
export function musicClipUrls(outputs: readonly TaskOutput[], taskId: string, baseUrl: string): string[] {
  return outputs
    .flatMap((output) => clipOf(output, taskId, baseUrl))
    .flatMap((clip) => Object.values(LAMBDA_CLIP_FILES).map((field) => clip[field]))
    .filter((url): url is string => typeof url === 'string' && url !== '');
}
