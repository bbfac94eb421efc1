import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Answer of `GET /v1beta/models/{model}`, and one item of the list. */
export class NativeModelView {
  @ApiProperty({ example: 'models/kappa-2.0-flash' })
  name: string;

  @ApiProperty()
  version: string;

  @ApiProperty()
  displayName: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ type: 'integer' })
  inputTokenLimit: number;

  @ApiProperty({ type: 'integer' })
  outputTokenLimit: number;

  @ApiProperty({ type: String, isArray: true, example: ['generateContent', 'streamGenerateContent'] })
  supportedGenerationMethods: string[];
}

/** Answer of `GET /v1beta/models`. */
export class NativeModelListView {
  @ApiProperty({ type: NativeModelView, isArray: true })
  models: NativeModelView[];

  @ApiPropertyOptional({ description: 'Pass as `pageToken` for the next page; absent on the last.' })
  nextPageToken?: string;
}
