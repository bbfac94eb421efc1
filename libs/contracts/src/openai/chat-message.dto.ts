import { ApiProperty } from '@nestjs/swagger';
import { NestedListField } from '../validation/nested-field.decorator';
import { combinePropertyDecorators, OPTIONAL_OR_NULL } from '../validation/field.decorator';
import { ValidateObjectRule, ValidateRule } from '../validation/rule.decorator';
import { EnumField, StringField } from '../validation/scalar-field.decorator';
import { CHAT_CONTENT_SCHEMA, ChatContentPart, checkChatContent } from './chat-content.check';
import { CHAT_ROLES, ChatRole } from './chat-values.constants';
import { ChatToolCallDto } from './chat-tool.dto';
import { TEXT_REQUEST_LIMITS } from '../validation/request-limits.constants';

function hasToolCalls(message: Record<string, unknown>): boolean {
  return Array.isArray(message['tool_calls']) && message['tool_calls'].length > 0;
}

/** Which fields a message needs depends on its role. */
function checkRoleRequirements(message: Record<string, unknown>): string | undefined {
  if (message['content'] == null && !(message['role'] === 'assistant' && hasToolCalls(message))) {
    return message['content'] === undefined
      ? '.content is required'
      : '.content may be null only in an assistant message with tool_calls';
  }
  if (message['role'] === 'tool' && message['tool_call_id'] == null) {
    return '.tool_call_id is required when role is tool';
  }
  return undefined;
}

function ChatContentField(): PropertyDecorator {
  return combinePropertyDecorators(
    ApiProperty({
      description: 'Text, or text and image parts.',
      required: false,
      ...CHAT_CONTENT_SCHEMA,
    }),
    ValidateRule('chatContent', (content, _message, context) =>
      content == null ? undefined : checkChatContent(content, context),
    ),
  );
}

@ValidateObjectRule('chatRoleRequirements', checkRoleRequirements)
export class ChatMessageDto {
  @EnumField(CHAT_ROLES, { description: 'Author of the message.' })
  role: ChatRole;

  @ChatContentField()
  content?: string | ChatContentPart[] | null;

  @StringField({
    description: 'Name of the author.',
    ...OPTIONAL_OR_NULL,
    maxLength: TEXT_REQUEST_LIMITS.identifierLength,
  })
  name?: string | null;

  @NestedListField(() => ChatToolCallDto, {
    description: 'Tool calls made by the assistant.',
    ...OPTIONAL_OR_NULL,
    maxItems: TEXT_REQUEST_LIMITS.functionsPerList,
  })
  tool_calls?: ChatToolCallDto[] | null;

  @StringField({
    description: 'The call a tool message answers.',
    nonEmpty: true,
    maxLength: TEXT_REQUEST_LIMITS.identifierLength,
    ...OPTIONAL_OR_NULL,
  })
  tool_call_id?: string | null;
}
