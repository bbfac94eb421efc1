import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ImageDataView } from './image-response.view';

export class ImageTaskErrorView {
  @ApiProperty({ description: 'The failure kind (`upstream_unavailable`, `content_policy` …).' })
  code: string;

  @ApiProperty()
  message: string;
}

/**
 * An asynchronous image job (`Prefer: respond-async` on the image routes): the 202 answer, and
 * `GET /v1/images/generations/{id}`. Completed, it also carries `created` and `data[]` exactly as the
 * synchronous answer would.
 */
export class ImageTaskView {
  @ApiProperty({ description: 'The task id (`img_…`); also `GET /v1/tasks/{id}`.' })
  id: string;

  @ApiProperty({ enum: ['image.task'] })
  object: 'image.task';

  @ApiProperty()
  model: string;

  @ApiProperty({ enum: ['queued', 'processing', 'completed', 'failed'] })
  status: string;

  @ApiProperty({ description: 'Unix seconds.' })
  created_at: number;

  @ApiPropertyOptional({ description: 'Unix seconds, once completed.', nullable: true, type: Number })
  completed_at: number | null;

  @ApiPropertyOptional({ description: 'Completed: as the synchronous answer’s `created`.' })
  created?: number;

  @ApiPropertyOptional({ type: ImageDataView, isArray: true, description: 'Completed: the images.' })
  data?: ImageDataView[];

  @ApiPropertyOptional({ type: ImageTaskErrorView, nullable: true })
  error: ImageTaskErrorView | null;

  @ApiPropertyOptional({
    description: 'What the ledger captured, in micros (a decimal string), once settled.',
    nullable: true,
    type: String,
  })
  cost_micros: string | null;
}
