import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const GROUP_NOTE = 'Present when grouped by it; `(none)` for requests refused before it was known.';

/** Usage summed over one group: the grouped values, then the figures. */
export class UsageRow {
  @ApiProperty({ description: 'The grouped values joined by commas, in the order of groupBy.' })
  group: string;

  @ApiPropertyOptional({ description: `The UTC day, YYYY-MM-DD. ${GROUP_NOTE}`, example: '2026-03-01' })
  day?: string;

  @ApiPropertyOptional({ description: `The UTC hour, YYYY-MM-DDTHH:00Z. ${GROUP_NOTE}` })
  hour?: string;

  @ApiPropertyOptional({ description: `The account charged. ${GROUP_NOTE}` })
  accountId?: string;

  @ApiPropertyOptional({ description: `The key. ${GROUP_NOTE}` })
  keyId?: string;

  @ApiPropertyOptional({ description: `The model. ${GROUP_NOTE}` })
  model?: string;

  @ApiPropertyOptional({ description: `The channel. ${GROUP_NOTE}` })
  channelId?: string;

  @ApiProperty({ description: 'Requests.', type: 'integer' })
  requests: number;

  @ApiProperty({ description: 'Requests that did not end `completed`.', type: 'integer' })
  errors: number;

  @ApiProperty({ description: 'Input tokens.', type: 'integer' })
  inputTokens: number;

  @ApiProperty({ description: 'Output tokens.', type: 'integer' })
  outputTokens: number;

  @ApiProperty({ description: 'Images returned.', type: 'integer' })
  images: number;

  @ApiProperty({ description: 'Seconds of video or audio produced, as billed.', type: 'integer' })
  mediaSeconds: number;

  @ApiProperty({ description: 'Cost captured, in micros.', type: String, example: '1200' })
  costMicros: string;
}
