import { ApiProperty } from '@nestjs/swagger';
import { combinePropertyDecorators, OPTIONAL_OR_NULL } from '../validation/field.decorator';
import { NestedField, NestedListField } from '../validation/nested-field.decorator';
import { ValidateRule } from '../validation/rule.decorator';
import { BooleanField, IntegerField, NumberField, StringField } from '../validation/scalar-field.decorator';
import { checkList, checkString } from '../validation/value-checks.util';
import { ChatMessageDto } from './chat-message.dto';
import {
  ChatToolChoice,
  ChatToolDto,
  ResponseFormatDto,
  StreamOptionsDto,
  ToolChoiceField,
} from './chat-tool.dto';
import { TEXT_REQUEST_LIMITS } from '../validation/request-limits.constants';
import { nullableOneOf } from '../validation/nullable-one-of.schema';

function checkStop(stop: unknown): string | undefined {
  if (stop === undefined || stop === null || typeof stop === 'string') return undefined;
  return Array.isArray(stop)
    ? checkList(stop, (item) => checkString(item), { maxItems: TEXT_REQUEST_LIMITS.stopSequences })
    : 'must be a string or an array of strings';
}

function StopField(): PropertyDecorator {
  return combinePropertyDecorators(
    ApiProperty({
      description: 'Generation stops at these strings.',
      required: false,
      ...nullableOneOf(
        { type: 'string' },
        { type: 'array', items: { type: 'string' }, maxItems: TEXT_REQUEST_LIMITS.stopSequences },
      ),
    }),
    ValidateRule('stop', checkStop),
  );
}

/**
 * Body of `POST /v1/chat/completions` (upstreams.md §2.2). Optional fields accept `null` like the
 * OpenAI-style wire does; fields not declared here pass through untouched.
 */
export class ChatCompletionRequestDto {
  @StringField({
    description: 'Model name.',
    nonEmpty: true,
    maxLength: TEXT_REQUEST_LIMITS.identifierLength,
    example: 'kappa-2.0-flash',
  })
  model: string;

  @NestedListField(() => ChatMessageDto, {
    description: 'The conversation.',
    minItems: 1,
    maxItems: TEXT_REQUEST_LIMITS.conversationItems,
  })
  messages: ChatMessageDto[];

  @BooleanField({ description: 'Stream the answer as server-sent events.', ...OPTIONAL_OR_NULL })
  stream?: boolean | null;

  @NestedField(() => StreamOptionsDto, { description: 'Streaming options.', ...OPTIONAL_OR_NULL })
  stream_options?: StreamOptionsDto | null;

  @IntegerField({ description: 'Output token cap (older name).', ...OPTIONAL_OR_NULL, min: 1 })
  max_tokens?: number | null;

  @IntegerField({ description: 'Output token cap.', ...OPTIONAL_OR_NULL, min: 1 })
  max_completion_tokens?: number | null;

  @NumberField({ description: 'Randomness.', ...OPTIONAL_OR_NULL, min: 0, max: 2 })
  temperature?: number | null;

  @NumberField({
    description: 'Nucleus sampling probability threshold.',
    ...OPTIONAL_OR_NULL,
    min: 0,
    max: 1,
  })
  top_p?: number | null;

  @IntegerField({ description: 'Number of choices.', ...OPTIONAL_OR_NULL, min: 1 })
  n?: number | null;

  @StopField()
  stop?: string | string[] | null;

  @NumberField({ description: 'Discourages repeated topics.', ...OPTIONAL_OR_NULL, min: -2, max: 2 })
  presence_penalty?: number | null;

  @NumberField({ description: 'Discourages repeated words.', ...OPTIONAL_OR_NULL, min: -2, max: 2 })
  frequency_penalty?: number | null;

  @IntegerField({ description: 'Fixed random seed.', ...OPTIONAL_OR_NULL })
  seed?: number | null;

  @NestedListField(() => ChatToolDto, {
    description: 'Functions the model may call.',
    ...OPTIONAL_OR_NULL,
    maxItems: TEXT_REQUEST_LIMITS.tools,
  })
  tools?: ChatToolDto[] | null;

  @ToolChoiceField()
  tool_choice?: ChatToolChoice | null;

  @NestedField(() => ResponseFormatDto, { description: 'Output format.', ...OPTIONAL_OR_NULL })
  response_format?: ResponseFormatDto | null;

  @BooleanField({ description: 'Return token log probabilities.', ...OPTIONAL_OR_NULL })
  logprobs?: boolean | null;

  @IntegerField({
    description: 'Alternatives per token with logprobs.',
    ...OPTIONAL_OR_NULL,
    min: 0,
    max: 20,
  })
  top_logprobs?: number | null;

  @StringField({
    description: 'End-user id.',
    ...OPTIONAL_OR_NULL,
    maxLength: TEXT_REQUEST_LIMITS.identifierLength,
  })
  user?: string | null;

  @BooleanField({ description: 'Allow several tool calls at once.', ...OPTIONAL_OR_NULL })
  parallel_tool_calls?: boolean | null;
}
