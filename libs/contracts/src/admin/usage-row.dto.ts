import { ApiProperty } from '@nestjs/swagger';

/** Usage summed over one group (a key, a model, a channel or a day). */
export class UsageRow {
  @ApiProperty({ description: 'The group: key id, model, channel id or day (YYYY-MM-DD).' })
  group: string;

  @ApiProperty({ description: 'Requests.', type: 'integer' })
  requests: number;

  @ApiProperty({ description: 'Input tokens.', type: 'integer' })
  inputTokens: number;

  @ApiProperty({ description: 'Output tokens.', type: 'integer' })
  outputTokens: number;

  @ApiProperty({ description: 'Cost in micros.', type: String, example: '1200' })
  costMicros: string;
}
