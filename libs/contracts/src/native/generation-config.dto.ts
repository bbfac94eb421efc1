import {
  BooleanField,
  EnumField,
  EnumListField,
  IntegerField,
  NumberField,
  StringField,
  StringListField,
} from '../validation/scalar-field.decorator';
import { JsonObjectField, NestedField } from '../validation/nested-field.decorator';
import {
  IMAGE_ASPECT_RATIOS,
  IMAGE_SIZES,
  ImageAspectRatio,
  ImageSize,
  RESPONSE_MODALITIES,
  ResponseModality,
} from './native-values.constants';
import { TEXT_REQUEST_LIMITS } from '../validation/request-limits.constants';

export class ThinkingConfigDto {
  @IntegerField({ description: 'Reasoning token budget; -1 lets the model decide.', optional: true, min: -1 })
  thinkingBudget?: number;

  @BooleanField({ description: 'Return thought summaries.', optional: true })
  includeThoughts?: boolean;

  @StringField({
    description: 'Reasoning level name (newer models).',
    optional: true,
    nonEmpty: true,
    maxLength: TEXT_REQUEST_LIMITS.identifierLength,
  })
  thinkingLevel?: string;
}

export class ImageConfigDto {
  @EnumField(IMAGE_ASPECT_RATIOS, { description: 'Aspect ratio of generated images.', optional: true })
  aspectRatio?: ImageAspectRatio;

  @EnumField(IMAGE_SIZES, { description: 'Size tier; which tiers a model honours varies.', optional: true })
  imageSize?: ImageSize;
}

export class GenerationConfigDto {
  @NumberField({
    description: 'Randomness; higher gives more diverse output.',
    optional: true,
    min: 0,
    max: 2,
  })
  temperature?: number;

  @NumberField({ description: 'Nucleus sampling probability threshold.', optional: true, min: 0, max: 1 })
  topP?: number;

  @IntegerField({ description: 'Sample only from the K most probable tokens.', optional: true, min: 1 })
  topK?: number;

  @IntegerField({ description: 'Number of candidates returned.', optional: true, min: 1 })
  candidateCount?: number;

  @IntegerField({ description: 'Maximum output tokens.', optional: true, min: 1 })
  maxOutputTokens?: number;

  @StringListField({
    description: 'Generation stops at these strings.',
    optional: true,
    maxItems: TEXT_REQUEST_LIMITS.stopSequences,
  })
  stopSequences?: string[];

  @StringField({
    description: 'Output format, e.g. application/json.',
    optional: true,
    nonEmpty: true,
    maxLength: TEXT_REQUEST_LIMITS.identifierLength,
  })
  responseMimeType?: string;

  @JsonObjectField({ description: 'Schema the output must follow.', optional: true })
  responseSchema?: Record<string, unknown>;

  @NumberField({ description: 'Discourages repeated topics.', optional: true })
  presencePenalty?: number;

  @NumberField({ description: 'Discourages repeated words.', optional: true })
  frequencyPenalty?: number;

  @IntegerField({ description: 'Fixed random seed.', optional: true })
  seed?: number;

  @BooleanField({ description: 'Return token probabilities.', optional: true })
  responseLogprobs?: boolean;

  @IntegerField({ description: 'Number of token probabilities returned.', optional: true, min: 0 })
  logprobs?: number;

  @BooleanField({ description: 'Return audio timestamps.', optional: true })
  audioTimestamp?: boolean;

  @JsonObjectField({ description: 'Speech output configuration.', optional: true })
  speechConfig?: Record<string, unknown>;

  @NestedField(() => ThinkingConfigDto, { description: 'Reasoning configuration.', optional: true })
  thinkingConfig?: ThinkingConfigDto;

  @NestedField(() => ImageConfigDto, { description: 'Image output configuration.', optional: true })
  imageConfig?: ImageConfigDto;

  @EnumListField(RESPONSE_MODALITIES, {
    description: 'Output modalities.',
    optional: true,
    minItems: 1,
    maxItems: TEXT_REQUEST_LIMITS.responseModalities,
  })
  responseModalities?: ResponseModality[];
}
