import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { VIDEO_STATUSES, type VideoStatusValue } from './video-values.constants';

export class VideoErrorView {
  @ApiProperty({
    description:
      '`content_policy_violation`, `invalid_request`, `upstream_error`, `deadline_exceeded`, `submission_lost` …',
  })
  code: string;

  @ApiProperty()
  message: string;
}

/** A video task (gateway interface, "Video task object"): the create answer and `GET /v1/videos/{id}`. */
export class VideoObjectView {
  @ApiProperty({ example: 'video_3q2Zb1…' })
  id: string;

  @ApiProperty({ enum: ['video'] })
  object: 'video';

  @ApiProperty({ description: 'The model as the client named it.' })
  model: string;

  @ApiProperty({ enum: [...VIDEO_STATUSES] })
  status: VideoStatusValue;

  @ApiProperty({ description: '0–100, as the upstream reports it.' })
  progress: number;

  @ApiProperty({ description: 'Unix seconds.' })
  created_at: number;

  @ApiProperty({ description: 'Unix seconds; null until completed.', nullable: true, type: Number })
  completed_at: number | null;

  @ApiProperty({
    description: 'Always null: the gateway serves the bytes while the upstream keeps them.',
    nullable: true,
    type: Number,
  })
  expires_at: null;

  @ApiPropertyOptional({
    description: 'Only once completed: the gateway’s own `/v1/videos/{id}/content`, never the upstream’s.',
  })
  video_url?: string;

  @ApiProperty({ nullable: true, type: String })
  prompt: string | null;

  @ApiProperty({
    description: 'Seconds asked of the upstream (a fixed-duration family’s own).',
    example: '8',
  })
  seconds: string;

  @ApiProperty({
    description: 'The size on the wire, where the family takes one.',
    nullable: true,
    type: String,
  })
  size: string | null;

  @ApiProperty({ nullable: true, type: String })
  remixed_from_video_id: string | null;

  @ApiProperty({ type: VideoErrorView, nullable: true, description: 'Set when failed.' })
  error: VideoErrorView | null;

  @ApiPropertyOptional({
    description: 'What the task cost, in micros (a decimal string); present once the task is settled.',
    type: String,
    pattern: '^[0-9]+$',
  })
  cost_micros?: string;
}

/** `POST /v1/video/create` and `GET /v1/video/query`: the video object, its id also as `task_id`. */
export class UnifiedVideoView extends VideoObjectView {
  @ApiProperty({ description: 'The same as `id`.' })
  task_id: string;
}

/** `GET /v1/videos`. */
export class VideoListView {
  @ApiProperty({ enum: ['list'] })
  object: 'list';

  @ApiProperty({ type: VideoObjectView, isArray: true })
  data: VideoObjectView[];

  @ApiProperty({ nullable: true, type: String })
  first_id: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'Pass as `after` for the next page.' })
  last_id: string | null;

  @ApiProperty()
  has_more: boolean;
}

/** `DELETE /v1/videos/{id}` of a finished video. */
export class VideoDeletedView {
  @ApiProperty()
  id: string;

  @ApiProperty({ enum: ['video.deleted'] })
  object: 'video.deleted';

  @ApiProperty({ enum: [true] })
  deleted: true;
}
