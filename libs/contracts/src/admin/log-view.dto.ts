import { ApiProperty } from '@nestjs/swagger';

const OPTIONAL_ID = { type: String, nullable: true };

/** One request log row; logs never hold payloads. */
export class LogView {
  @ApiProperty({ description: 'Request id (also in the response header).' })
  requestId: string;

  @ApiProperty({ description: 'Key that made the request.', ...OPTIONAL_ID })
  keyId: string | null;

  @ApiProperty({ description: 'Account charged.', ...OPTIONAL_ID })
  accountId: string | null;

  @ApiProperty({ description: 'Model requested.', ...OPTIONAL_ID })
  model: string | null;

  @ApiProperty({ description: 'Channel that answered last.', ...OPTIONAL_ID })
  channelId: string | null;

  @ApiProperty({ description: 'Route pattern.', example: '/v1/chat/completions' })
  route: string;

  @ApiProperty({ description: 'HTTP status returned.', type: 'integer' })
  httpStatus: number;

  @ApiProperty({ description: 'How the request ended.', example: 'completed' })
  endReason: string;

  @ApiProperty({ description: 'Total time, ms.', type: 'integer' })
  latencyMs: number;

  @ApiProperty({ description: 'Time to first byte, ms.', type: 'integer', nullable: true })
  ttfbMs: number | null;

  @ApiProperty({ description: 'Input tokens.', type: 'integer' })
  inputTokens: number;

  @ApiProperty({ description: 'Output tokens.', type: 'integer' })
  outputTokens: number;

  @ApiProperty({ description: 'Images returned.', type: 'integer' })
  imageCount: number;

  @ApiProperty({ description: 'Seconds of video or audio produced, as billed.', type: 'integer' })
  mediaSeconds: number;

  @ApiProperty({ description: 'Cost captured, in micros.', type: String, example: '1200' })
  costMicros: string;

  @ApiProperty({
    description: 'Cost the account could not pay (beyond its overdraft), in micros; not captured.',
    type: String,
    example: '0',
  })
  overageMicros: string;

  @ApiProperty({ description: 'Upstream attempts (failover included).', type: 'integer' })
  attempts: number;

  @ApiProperty({ description: 'Time of the request (ISO 8601).', format: 'date-time' })
  createdAt: string;
}

/** One page of logs, newest first. */
export class LogPageView {
  @ApiProperty({ description: 'The rows.', type: () => LogView, isArray: true })
  items: LogView[];

  @ApiProperty({ description: 'Cursor of the next page; null on the last.', type: String, nullable: true })
  nextCursor: string | null;
}
