import { NestedField, NestedListField } from '../validation/nested-field.decorator';
import { StringField } from '../validation/scalar-field.decorator';
import { ContentDto, SystemInstructionDto } from './content.dto';
import { GenerationConfigDto } from './generation-config.dto';
import { SafetySettingDto } from './safety-setting.dto';
import { ToolConfigDto } from './tool-config.dto';
import { ToolDto } from './tool.dto';
import { TEXT_REQUEST_LIMITS } from '../validation/request-limits.constants';

/**
 * Body of the native generate and stream routes, camelCase only (snake_case spellings are renamed
 * before validation). Fields not declared here pass through untouched.
 */
export class NativeGenerateRequestDto {
  @NestedListField(() => ContentDto, {
    description: 'The conversation.',
    minItems: 1,
    maxItems: TEXT_REQUEST_LIMITS.conversationItems,
  })
  contents: ContentDto[];

  @NestedField(() => SystemInstructionDto, { description: 'System prompt.', optional: true })
  systemInstruction?: SystemInstructionDto;

  @NestedField(() => GenerationConfigDto, { description: 'Generation settings.', optional: true })
  generationConfig?: GenerationConfigDto;

  @NestedListField(() => SafetySettingDto, {
    description: 'Blocking thresholds per harm category.',
    optional: true,
    maxItems: TEXT_REQUEST_LIMITS.safetySettings,
  })
  safetySettings?: SafetySettingDto[];

  @NestedListField(() => ToolDto, {
    description: 'Tools the model may use.',
    optional: true,
    maxItems: TEXT_REQUEST_LIMITS.tools,
  })
  tools?: ToolDto[];

  @NestedField(() => ToolConfigDto, { description: 'Tool usage settings.', optional: true })
  toolConfig?: ToolConfigDto;

  @StringField({
    description: 'Id of a cached context to reuse.',
    optional: true,
    nonEmpty: true,
    maxLength: TEXT_REQUEST_LIMITS.identifierLength,
  })
  cachedContent?: string;
}
