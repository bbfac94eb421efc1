import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ChatToolCallFunctionView {
  @ApiProperty()
  name: string;

  @ApiProperty({ description: 'A JSON text, as the model wrote it.' })
  arguments: string;
}

export class ChatToolCallView {
  @ApiProperty()
  id: string;

  @ApiProperty({ enum: ['function'] })
  type: 'function';

  @ApiProperty({ type: ChatToolCallFunctionView })
  function: ChatToolCallFunctionView;
}

export class ChatResponseMessageView {
  @ApiProperty({ enum: ['assistant'] })
  role: 'assistant';

  @ApiProperty({ type: String, nullable: true })
  content: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  refusal?: string | null;

  @ApiPropertyOptional({ type: ChatToolCallView, isArray: true })
  tool_calls?: ChatToolCallView[];
}

export class ChatChoiceView {
  @ApiProperty({ type: 'integer' })
  index: number;

  @ApiProperty({ type: ChatResponseMessageView })
  message: ChatResponseMessageView;

  @ApiProperty({
    description: '`stop`, `length`, `tool_calls` or `content_filter`.',
    type: String,
    nullable: true,
  })
  finish_reason: string | null;

  @ApiPropertyOptional({
    description: 'Token log probabilities, when asked for.',
    type: Object,
    nullable: true,
  })
  logprobs?: Record<string, unknown> | null;
}

export class ChatUsageView {
  @ApiProperty({ type: 'integer' })
  prompt_tokens: number;

  @ApiProperty({ type: 'integer' })
  completion_tokens: number;

  @ApiProperty({ type: 'integer' })
  total_tokens: number;
}

/**
 * Answer of `POST /v1/chat/completions` without `stream` (upstreams.md §2.2); a stream sends the same
 * fields as `chat.completion.chunk` events with `delta` in place of `message`.
 */
export class ChatCompletionView {
  @ApiProperty()
  id: string;

  @ApiProperty({ enum: ['chat.completion'] })
  object: 'chat.completion';

  @ApiProperty({ description: 'Unix seconds.', type: 'integer' })
  created: number;

  @ApiProperty()
  model: string;

  @ApiProperty({ type: ChatChoiceView, isArray: true })
  choices: ChatChoiceView[];

  @ApiPropertyOptional({ type: ChatUsageView, nullable: true })
  usage?: ChatUsageView | null;
}
