import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** `data` of a `/bt` answer: a submission's task id, or a queried task's state and results (§4.4). */
export class BetaTaskDataView {
  @ApiPropertyOptional({ description: 'Submission: the task id.' })
  task_id?: string;

  @ApiPropertyOptional({
    description: 'Query: the task’s state, e.g. `in_queue`, `generating`, `done`, `not_found`.',
  })
  status?: string;

  @ApiPropertyOptional({
    description: 'Query of a done image task: every image.',
    type: String,
    isArray: true,
  })
  binary_data_base64?: string[];

  @ApiPropertyOptional({
    description: 'Query of a done image task: the images’ URLs when `return_url` was set, else null.',
    type: String,
    isArray: true,
    nullable: true,
  })
  image_urls?: string[] | null;

  @ApiPropertyOptional({ description: 'Query of a done video task: the gateway’s content URL.' })
  video_url?: string;
}

/** The `/bt` success envelope (upstreams.md §4.3): `code` 10000. */
export class BetaEnvelopeView {
  @ApiProperty({ type: 'integer', example: 10000 })
  code: number;

  @ApiProperty({ description: 'The same as `code`.', type: 'integer' })
  status: number;

  @ApiProperty({ example: 'Success' })
  message: string;

  @ApiProperty()
  request_id: string;

  @ApiProperty({ example: '12ms' })
  time_elapsed: string;

  @ApiProperty({ type: BetaTaskDataView })
  data: BetaTaskDataView;
}
