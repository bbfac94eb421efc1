import { ApiProperty } from '@nestjs/swagger';
import { JsonObjectField, NestedField } from '../validation/nested-field.decorator';
import { ValidateObjectRule, ValidateRule } from '../validation/rule.decorator';
import { combinePropertyDecorators } from '../validation/field.decorator';
import { BooleanField, EnumField, StringField } from '../validation/scalar-field.decorator';
import { checkOneOf, checkString, isJsonObject, problemAt } from '../validation/value-checks.util';
import {
  RESPONSE_FORMAT_TYPES,
  ResponseFormatType,
  TOOL_CHOICE_MODES,
  ToolChoiceMode,
} from './chat-values.constants';
import { TEXT_REQUEST_LIMITS } from '../validation/request-limits.constants';
import { nullableOneOf } from '../validation/nullable-one-of.schema';

const FUNCTION_NAME = { nonEmpty: true, maxLength: 64 };
const IDENTIFIER = { nonEmpty: true, maxLength: TEXT_REQUEST_LIMITS.identifierLength };

export class ChatFunctionDto {
  @StringField({ description: 'Function name.', ...FUNCTION_NAME })
  name: string;

  @StringField({ description: 'What the function does.', optional: true })
  description?: string;

  @JsonObjectField({ description: 'JSON Schema of the arguments.', optional: true })
  parameters?: Record<string, unknown>;

  @BooleanField({ description: 'Follow the schema exactly.', optional: true, nullable: true })
  strict?: boolean | null;
}

export class ChatToolDto {
  @EnumField(['function'], { description: 'Tool type.' })
  type: 'function';

  @NestedField(() => ChatFunctionDto, { description: 'The function.' })
  function: ChatFunctionDto;
}

export class ChatToolCallFunctionDto {
  @StringField({ description: 'Function name.', ...IDENTIFIER })
  name: string;

  @StringField({ description: 'Arguments as a JSON string.' })
  arguments: string;
}

export class ChatToolCallDto {
  @StringField({ description: 'Call id, answered by a tool message.', ...IDENTIFIER })
  id: string;

  @EnumField(['function'], { description: 'Call type.' })
  type: 'function';

  @NestedField(() => ChatToolCallFunctionDto, { description: 'The function called.' })
  function: ChatToolCallFunctionDto;
}

export type ChatToolChoice = ToolChoiceMode | { type: 'function'; function: { name: string } };

function checkToolChoice(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return checkOneOf(value, TOOL_CHOICE_MODES);
  if (!isJsonObject(value)) return `must be one of ${TOOL_CHOICE_MODES.join(', ')} or a named function`;
  const named = value['function'];
  return (
    problemAt('.type', checkOneOf(value['type'], ['function'])) ??
    (isJsonObject(named)
      ? problemAt('.function.name', checkString(named['name'], FUNCTION_NAME))
      : problemAt('.function', 'must be an object'))
  );
}

/** `auto`, `none`, `required`, or `{type: "function", function: {name}}`. */
export function ToolChoiceField(): PropertyDecorator {
  return combinePropertyDecorators(
    ApiProperty({
      description: 'Whether and which tool to call.',
      required: false,
      ...nullableOneOf(
        { type: 'string', enum: [...TOOL_CHOICE_MODES] },
        {
          type: 'object',
          properties: {
            type: { type: 'string', enum: ['function'] },
            function: { type: 'object', properties: { name: { type: 'string' } } },
          },
        },
      ),
    }),
    ValidateRule('toolChoice', checkToolChoice),
  );
}

export class StreamOptionsDto {
  @BooleanField({ description: 'Send a final chunk with usage.', optional: true, nullable: true })
  include_usage?: boolean | null;
}

function checkJsonSchemaPresence(format: Record<string, unknown>): string | undefined {
  return format['type'] === 'json_schema' && format['json_schema'] == null
    ? '.json_schema is required when type is json_schema'
    : undefined;
}

@ValidateObjectRule('jsonSchemaPresence', checkJsonSchemaPresence)
export class ResponseFormatDto {
  @EnumField(RESPONSE_FORMAT_TYPES, { description: 'Output format.' })
  type: ResponseFormatType;

  @JsonObjectField({ description: 'Schema for type json_schema.', optional: true, nullable: true })
  json_schema?: Record<string, unknown> | null;
}
