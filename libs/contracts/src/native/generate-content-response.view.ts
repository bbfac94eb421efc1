import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ContentDto } from './content.dto';

export class NativeSafetyRatingView {
  @ApiProperty({ example: 'HARM_CATEGORY_HARASSMENT' })
  category: string;

  @ApiProperty({ enum: ['NEGLIGIBLE', 'LOW', 'MEDIUM', 'HIGH'] })
  probability: string;
}

export class NativeCandidateView {
  @ApiPropertyOptional({ type: ContentDto, description: 'Absent or empty for a blocked output.' })
  content?: ContentDto;

  @ApiPropertyOptional({ example: 'STOP' })
  finishReason?: string;

  @ApiPropertyOptional({ type: 'integer' })
  index?: number;

  @ApiPropertyOptional({ type: NativeSafetyRatingView, isArray: true })
  safetyRatings?: NativeSafetyRatingView[];

  @ApiPropertyOptional({
    description: 'Token log probabilities, when `responseLogprobs` was set.',
    type: Object,
  })
  logprobsResult?: Record<string, unknown>;
}

export class NativePromptFeedbackView {
  @ApiPropertyOptional({ example: 'SAFETY' })
  blockReason?: string;

  @ApiPropertyOptional({ type: NativeSafetyRatingView, isArray: true })
  safetyRatings?: NativeSafetyRatingView[];
}

/** Token counts (upstreams.md §1.5); on a stream they are cumulative. */
export class NativeUsageMetadataView {
  @ApiPropertyOptional({ type: 'integer' })
  promptTokenCount?: number;

  @ApiPropertyOptional({ type: 'integer' })
  cachedContentTokenCount?: number;

  @ApiPropertyOptional({ type: 'integer' })
  candidatesTokenCount?: number;

  @ApiPropertyOptional({ type: 'integer' })
  thoughtsTokenCount?: number;

  @ApiPropertyOptional({ type: 'integer' })
  toolUsePromptTokenCount?: number;

  @ApiPropertyOptional({ type: 'integer' })
  totalTokenCount?: number;
}

/** Answer of `{model}:generateContent`, and each chunk of `{model}:streamGenerateContent`. */
export class GenerateContentResponseView {
  @ApiPropertyOptional({ type: NativeCandidateView, isArray: true })
  candidates?: NativeCandidateView[];

  @ApiPropertyOptional({ type: NativePromptFeedbackView })
  promptFeedback?: NativePromptFeedbackView;

  @ApiPropertyOptional({ type: NativeUsageMetadataView })
  usageMetadata?: NativeUsageMetadataView;

  @ApiPropertyOptional()
  modelVersion?: string;

  @ApiPropertyOptional()
  responseId?: string;
}
