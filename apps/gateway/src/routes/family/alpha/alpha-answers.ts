import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Task } from '@gateway/db';
import { isJsonObject } from '@gateway/providers-core';
import { videoErrorOf } from '../../modality/videos/video-failure';
import { costOf, videoContentUrl } from '../../modality/videos/video-object';

/** The status of the alpha client routes (gateway interface, "States and transitions"). */
export const ALPHA_STATUSES = ['processing', 'failed', 'completed'] as const;
export type AlphaStatus = (typeof ALPHA_STATUSES)[number];

/** The task's state in the upstream's own words (upstreams.md §3.5, read backwards). */
const WIRE_STATE_BY_STATUS: Readonly<Record<string, string>> = {
  queued: 'queueing',
  processing: 'processing',
  completed: 'success',
  failed: 'failed',
  cancelled: 'failed',
};
/** A failed task's `err_code` by the gateway's error code for it (video-failure.ts); others `InternalServiceFailure`. */
const ERR_CODE_BY_FAILURE: Readonly<Record<string, string>> = {
  content_policy_violation: 'CreationPolicyViolation',
  invalid_request: 'BadRequest',
};
const CANCELLED_ERR_CODE = 'UserCancelled';
const FAILED_ERR_CODE = 'InternalServiceFailure';

export class AlphaSubmissionView {
  @ApiProperty({
    description:
      'The gateway task id; query it on `/alpha/ent/v2/task/{task_id}/creations` or `/v1/videos/{id}`.',
  })
  task_id: string;

  @ApiProperty({ enum: ALPHA_STATUSES })
  status: AlphaStatus;

  @ApiProperty({ description: 'Unix seconds.' })
  created_at: number;
}

export class AlphaCreationView {
  @ApiProperty()
  id: string;

  @ApiProperty({ description: "The gateway's content URL (`/v1/videos/{id}/content`, with the same key)." })
  url: string;
}

export class AlphaCreationsView {
  @ApiProperty()
  id: string;

  @ApiProperty()
  task_id: string;

  @ApiProperty({ enum: ALPHA_STATUSES })
  status: AlphaStatus;

  @ApiProperty({
    enum: ['queueing', 'processing', 'success', 'failed'],
    description: 'The same, in upstreams §3.5 words.',
  })
  state: string;

  @ApiProperty({ description: 'Why a failed task failed (§3.6 words); empty otherwise.' })
  err_code: string;

  @ApiProperty()
  model: string;

  @ApiProperty({ description: 'Unix seconds.' })
  created_at: number;

  @ApiProperty({ description: 'The `payload` the submission passed, echoed.' })
  payload: string;

  @ApiProperty({ type: [AlphaCreationView], description: 'One creation once completed; empty before.' })
  creations: AlphaCreationView[];

  @ApiPropertyOptional({
    description: 'What the task cost, in micros (a decimal string); present once the task is settled.',
    type: String,
  })
  cost_micros?: string;
}

/** `processing` until the task ends; `cancelled` is a `failed` task on this wire. */
export function alphaStatusOf(task: Pick<Task, 'status'>): AlphaStatus {
  if (task.status === 'completed') return 'completed';
  return task.status === 'failed' || task.status === 'cancelled' ? 'failed' : 'processing';
}

/** A submission's answer (interface: `task_id`, `status`, `created_at` as a Unix integer). */
export function alphaSubmissionAnswer(task: Task): AlphaSubmissionView {
  return { task_id: task.id, status: alphaStatusOf(task), created_at: unixSeconds(task.createdAt) };
}

/**
 * The creations query's answer: the task's status in the interface's words and in the wire's
 * (`state`, `err_code`, `creations`, so that a client written from upstreams §3.4 reads it too); the
 * creation's URL is the gateway's own content URL, never the upstream's (which expires in 24 hours).
 */
export function alphaCreationsAnswer(task: Task, baseUrl: string): AlphaCreationsView {
  const call = isJsonObject(task.request) ? task.request : {};
  const extras = isJsonObject(call['extras']) ? call['extras'] : {};
  return {
    id: task.id,
    task_id: task.id,
    status: alphaStatusOf(task),
    state: WIRE_STATE_BY_STATUS[task.status] ?? 'processing',
    err_code: errCodeOf(task),
    model: task.model,
    created_at: unixSeconds(task.createdAt),
    payload: typeof extras['payload'] === 'string' ? extras['payload'] : '',
    creations: task.status === 'completed' ? [{ id: task.id, url: videoContentUrl(baseUrl, task.id) }] : [],
    ...costOf(task.costMicros),
  };
}

function errCodeOf(task: Task): string {
  if (task.status === 'cancelled') return CANCELLED_ERR_CODE;
  if (task.status !== 'failed') return '';
  return ERR_CODE_BY_FAILURE[videoErrorOf(task.failureReason).code] ?? FAILED_ERR_CODE;
}

function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
