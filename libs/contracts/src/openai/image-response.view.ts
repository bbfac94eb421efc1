import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ImageDataView {
  @ApiPropertyOptional({ description: 'The gateway’s URL of the image (response_format url).' })
  url?: string;

  @ApiPropertyOptional({ description: 'Base64 image data (response_format b64_json or base64).' })
  b64_json?: string;

  @ApiPropertyOptional({ description: 'The prompt as the upstream rewrote it, when it says.' })
  revised_prompt?: string;
}

/** Answer of `POST /v1/images/generations` and `POST /v1/images/edits`. */
export class ImageResponseView {
  @ApiProperty({ description: 'Unix seconds.' })
  created: number;

  @ApiProperty({ type: ImageDataView, isArray: true })
  data: ImageDataView[];

  @ApiPropertyOptional({ description: 'The channel’s own metadata, when it sends some.', type: Object })
  metadata?: Record<string, unknown>;
}
