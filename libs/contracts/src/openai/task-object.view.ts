import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The neutral statuses of every task kind (`tasks.status`). */
export const TASK_OBJECT_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type TaskObjectStatus = (typeof TASK_OBJECT_STATUSES)[number];

export class TaskErrorView {
  @ApiProperty({ description: '`deadline_exceeded`, `upstream_error`, `cancelled` …' })
  code: string;

  @ApiProperty()
  message: string;
}

/** What a completed task produced, as the gateway serves it: never an upstream URL. */
export class TaskResultView {
  @ApiProperty({
    type: [String],
    description:
      'The gateway’s own URLs of the outputs (a video’s `/v1/videos/{id}/content`, each music clip’s ' +
      '`/lambda/content/…` files), fetched with the same key.',
  })
  urls: string[];

  @ApiPropertyOptional({
    type: [String],
    description: 'Images of a `/bt` task, Base64, as `CVSync2AsyncGetResult` gives them.',
  })
  images_base64?: string[];
}

/** `GET /v1/tasks/{id}`: any task of the caller, whatever its kind and the route that made it. */
export class TaskObjectView {
  @ApiProperty({ example: 'video_3q2Zb1…' })
  id: string;

  @ApiProperty({ enum: ['task'] })
  object: 'task';

  @ApiProperty({ description: '`video`, `music`, `image`, `asset`.' })
  kind: string;

  @ApiProperty({ description: 'The model as the client named it.' })
  model: string;

  @ApiProperty({ enum: [...TASK_OBJECT_STATUSES] })
  status: TaskObjectStatus;

  @ApiProperty({ description: '0–100.' })
  progress: number;

  @ApiProperty({ description: 'Unix seconds.' })
  created_at: number;

  @ApiProperty({ description: 'Unix seconds; null until completed.', nullable: true, type: Number })
  completed_at: number | null;

  @ApiProperty({ type: TaskResultView, nullable: true, description: 'Null until completed.' })
  result: TaskResultView | null;

  @ApiProperty({ type: TaskErrorView, nullable: true, description: 'Set once failed or cancelled.' })
  error: TaskErrorView | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '1200000',
    description: 'The captured cost in micros, an integer string, once the task is settled; null before.',
  })
  cost_micros: string | null;
}
