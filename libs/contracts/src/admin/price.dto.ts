import { MicrosField, MicrosRecordField } from '../validation/micros-field.decorator';
import { NestedListField } from '../validation/nested-field.decorator';
import { ValidateObjectRule } from '../validation/rule.decorator';
import { IntegerField, StringField } from '../validation/scalar-field.decorator';
import { INT32_BOUNDS, NAME_RULES } from './admin-values.constants';
import { checkUniqueEntries } from './unique-entries.check';

/** The price of one model; every amount is micros as a decimal string. Absent dimensions cost nothing. */
export class PriceDto {
  @StringField({ description: 'Model name (a billing name may carry dimensions).', ...NAME_RULES })
  model: string;

  @MicrosField({ description: 'Micros per million input tokens.', optional: true })
  inputPerMillion?: string;

  @MicrosField({ description: 'Micros per million output tokens.', optional: true })
  outputPerMillion?: string;

  @MicrosField({ description: 'Micros per call.', optional: true })
  perCall?: string;

  @MicrosRecordField({ description: 'Micros per image, by size or quality tier.', optional: true })
  perImage?: Record<string, string>;

  @MicrosRecordField({ description: 'Micros per second of video, by resolution.', optional: true })
  perVideoSecond?: Record<string, string>;

  @IntegerField({
    description: 'Output tokens assumed for the hold when a request sets no cap.',
    optional: true,
    min: 1,
    max: INT32_BOUNDS.max,
  })
  defaultMaxOutputTokens?: number;

  @IntegerField({
    description:
      'Reasoning tokens the model may spend beyond the output cap; added to every hold so that it is an upper bound.',
    optional: true,
    min: 1,
    max: INT32_BOUNDS.max,
  })
  maxReasoningTokens?: number;
}

@ValidateObjectRule('uniquePriceModels', (body) => checkUniqueEntries('prices', 'model', body['prices']))
export class PutPricesDto {
  @NestedListField(() => PriceDto, { description: 'Prices to set, one per model.', minItems: 1 })
  prices: PriceDto[];
}
