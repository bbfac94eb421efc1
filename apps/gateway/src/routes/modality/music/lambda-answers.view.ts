import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { LAMBDA_STATUS, LAMBDA_SUCCESS_CODE } from '@gateway/dialects';

/** One clip of a song (upstreams.md §9.4), its files at the gateway's content URLs ('' when it has none). */
export class LambdaClipView {
  @ApiProperty()
  id: string;

  @ApiPropertyOptional()
  title?: string;

  @ApiPropertyOptional()
  status?: string;

  @ApiPropertyOptional()
  major_model_version?: string;

  @ApiPropertyOptional()
  model_name?: string;

  @ApiPropertyOptional({ description: 'As the upstream wrote it.', type: Object })
  metadata?: Record<string, unknown>;

  @ApiProperty()
  audio_url: string;

  @ApiProperty()
  video_url: string;

  @ApiProperty()
  image_url: string;

  @ApiProperty()
  image_large_url: string;
}

/** The lyrics of a lyrics task (§9.4). */
export class LambdaLyricsView {
  @ApiProperty()
  id: string;

  @ApiProperty()
  status: string;

  @ApiProperty()
  title: string;

  @ApiProperty()
  text: string;
}

/** A music task as the fetch routes answer it (music-task.view.ts). */
@ApiExtraModels(LambdaClipView, LambdaLyricsView)
export class LambdaTaskView {
  @ApiProperty()
  task_id: string;

  @ApiProperty({ example: 'MUSIC' })
  action: string;

  @ApiProperty({
    enum: [
      LAMBDA_STATUS.notStarted,
      LAMBDA_STATUS.submitted,
      LAMBDA_STATUS.inProgress,
      LAMBDA_STATUS.success,
      LAMBDA_STATUS.failure,
    ],
  })
  status: string;

  @ApiProperty({ description: 'Empty unless failed or cancelled.' })
  fail_reason: string;

  @ApiProperty({ description: 'Unix seconds.', type: 'integer' })
  submit_time: number;

  @ApiProperty({
    description: 'Always null: the gateway does not record it.',
    type: 'integer',
    nullable: true,
  })
  start_time: null;

  @ApiProperty({ description: 'Unix seconds; null while open.', type: 'integer', nullable: true })
  finish_time: number | null;

  @ApiProperty({ example: '100%' })
  progress: string;

  @ApiProperty({
    description: 'A song’s clips (none before completion), or a lyrics task’s lyrics (null before).',
    oneOf: [
      { type: 'array', items: { $ref: getSchemaPath(LambdaClipView) } },
      { type: 'object', allOf: [{ $ref: getSchemaPath(LambdaLyricsView) }], nullable: true },
    ],
  })
  data: LambdaClipView[] | LambdaLyricsView | null;
}

class LambdaEnvelopeView {
  @ApiProperty({ enum: [LAMBDA_SUCCESS_CODE] })
  code: typeof LAMBDA_SUCCESS_CODE;

  @ApiProperty({ example: '' })
  message: string;
}

export class LambdaSubmissionEnvelopeView extends LambdaEnvelopeView {
  @ApiProperty({ description: 'The task id.' })
  data: string;
}

export class LambdaTaskEnvelopeView extends LambdaEnvelopeView {
  @ApiProperty({ type: LambdaTaskView })
  data: LambdaTaskView;
}

export class LambdaTaskListEnvelopeView extends LambdaEnvelopeView {
  @ApiProperty({ type: LambdaTaskView, isArray: true })
  data: LambdaTaskView[];
}
