import { ApiProperty } from '@nestjs/swagger';

export class OpenAiModelView {
  @ApiProperty({ example: 'kappa-2.0-flash' })
  id: string;

  @ApiProperty({ enum: ['model'] })
  object: 'model';

  @ApiProperty({ type: 'integer' })
  created: number;

  @ApiProperty({ example: 'gateway' })
  owned_by: string;
}

/** Answer of `GET /v1/models`: the models this key may use. */
export class OpenAiModelListView {
  @ApiProperty({ enum: ['list'] })
  object: 'list';

  @ApiProperty({ type: OpenAiModelView, isArray: true })
  data: OpenAiModelView[];
}
