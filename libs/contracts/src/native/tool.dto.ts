import { JsonObjectField, NestedListField } from '../validation/nested-field.decorator';
import { StringField } from '../validation/scalar-field.decorator';
import { TEXT_REQUEST_LIMITS } from '../validation/request-limits.constants';

export class FunctionDeclarationDto {
  @StringField({
    description: 'Function name.',
    nonEmpty: true,
    maxLength: TEXT_REQUEST_LIMITS.identifierLength,
  })
  name: string;

  @StringField({ description: 'What the function does.', optional: true })
  description?: string;

  @JsonObjectField({ description: 'Schema of the arguments.', optional: true })
  parameters?: Record<string, unknown>;
}

/** One tool entry; the built-in tools take an options object (often empty). */
export class ToolDto {
  @NestedListField(() => FunctionDeclarationDto, {
    description: 'Functions the model may call.',
    optional: true,
    maxItems: TEXT_REQUEST_LIMITS.functionsPerList,
  })
  functionDeclarations?: FunctionDeclarationDto[];

  @JsonObjectField({ description: 'Web search tool.', optional: true })
  webSearch?: Record<string, unknown>;

  @JsonObjectField({ description: 'Web search retrieval tool.', optional: true })
  webSearchRetrieval?: Record<string, unknown>;

  @JsonObjectField({ description: 'Code execution tool.', optional: true })
  codeExecution?: Record<string, unknown>;

  @JsonObjectField({ description: 'URL context tool.', optional: true })
  urlContext?: Record<string, unknown>;

  @JsonObjectField({ description: 'Retrieval tool.', optional: true })
  retrieval?: Record<string, unknown>;
}
