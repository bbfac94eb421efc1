import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Task } from '@gateway/db';
import { isJsonObject } from '@gateway/providers-core';
import { GAMMA_OFFICIAL_SUCCESS, type GammaOfficialStatus } from '@gateway/providers';
import { videoErrorOf } from '../../modality/videos/video-failure';
import { costOf, videoContentUrl } from '../../modality/videos/video-object';

/** The row's status in the §5.8 `task_status` words; a cancelled task is a failed one on this wire. */
const STATUS_OF_ROW: Readonly<Record<string, GammaOfficialStatus>> = {
  queued: 'submitted',
  processing: 'processing',
  completed: 'succeed',
  failed: 'failed',
  cancelled: 'failed',
};
const CANCELLED_MESSAGE = 'The task was cancelled.';

export class GammaTaskInfoView {
  @ApiProperty({ description: 'The `external_task_id` the create gave; empty otherwise.' })
  external_task_id: string;
}

export class GammaVideoView {
  @ApiProperty()
  id: string;

  @ApiProperty({ description: "The gateway's content URL (`/v1/videos/{id}/content`, with the same key)." })
  url: string;

  @ApiProperty({ description: 'Seconds, written like `"10.0"`.' })
  duration: string;
}

export class GammaTaskResultView {
  @ApiProperty({ type: [GammaVideoView] })
  videos: GammaVideoView[];
}

export class GammaTaskView {
  @ApiProperty({ description: 'The gateway task id; `/v1/videos/{id}` reads it too.' })
  task_id: string;

  @ApiProperty({ enum: ['submitted', 'processing', 'succeed', 'failed'] })
  task_status: GammaOfficialStatus;

  @ApiProperty({ description: 'Why a failed task failed; empty otherwise.' })
  task_status_msg: string;

  @ApiProperty({ type: GammaTaskInfoView })
  task_info: GammaTaskInfoView;

  @ApiProperty({ description: 'Unix milliseconds.' })
  created_at: number;

  @ApiProperty({ description: 'Unix milliseconds.' })
  updated_at: number;

  @ApiPropertyOptional({ type: GammaTaskResultView, description: 'Only once `task_status` is `succeed`.' })
  task_result?: GammaTaskResultView;

  @ApiPropertyOptional({
    description: 'What the task cost, in micros (a decimal string); present once the task is settled.',
    type: String,
  })
  cost_micros?: string;
}

export class GammaTaskEnvelopeView {
  @ApiProperty({ description: '0 on success.' })
  code: number;

  @ApiProperty({ example: 'SUCCEED' })
  message: string;

  @ApiProperty({ description: "The gateway's request id." })
  request_id: string;

  @ApiProperty({ type: GammaTaskView })
  data: GammaTaskView;
}

/**
 * A task row in the §5.8 envelope (creation and query): millisecond times, the status in the wire's
 * words, and once it succeeded its one video at the gateway's own content URL (never the upstream's,
 * which expires), lasting the seconds produced (else those held).
 */
export function gammaTaskAnswer(task: Task, baseUrl: string, requestId: string): GammaTaskEnvelopeView {
  const call = isJsonObject(task.request) ? task.request : {};
  const metadata = isJsonObject(call['metadata']) ? call['metadata'] : {};
  const externalTaskId = metadata['external_task_id'];
  const status = STATUS_OF_ROW[task.status] ?? 'processing';
  const seconds = task.mediaSeconds ?? (typeof call['seconds'] === 'number' ? call['seconds'] : 0);
  return {
    code: GAMMA_OFFICIAL_SUCCESS.code,
    message: GAMMA_OFFICIAL_SUCCESS.message,
    request_id: requestId,
    data: {
      task_id: task.id,
      task_status: status,
      task_status_msg: statusMessageOf(task),
      task_info: { external_task_id: typeof externalTaskId === 'string' ? externalTaskId : '' },
      created_at: task.createdAt.getTime(),
      updated_at: (task.completedAt ?? task.updatedAt).getTime(),
      ...costOf(task.costMicros),
      ...(status === 'succeed'
        ? {
            task_result: {
              videos: [{ id: task.id, url: videoContentUrl(baseUrl, task.id), duration: seconds.toFixed(1) }],
            },
          }
        : {}),
    },
  };
}

function statusMessageOf(task: Task): string {
  if (task.status === 'cancelled') return CANCELLED_MESSAGE;
  return task.status === 'failed' ? videoErrorOf(task.failureReason).message : '';
}
