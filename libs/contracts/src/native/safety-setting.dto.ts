import { EnumField } from '../validation/scalar-field.decorator';
import {
  HARM_BLOCK_THRESHOLDS,
  HARM_CATEGORIES,
  HarmBlockThreshold,
  HarmCategory,
} from './native-values.constants';

export class SafetySettingDto {
  @EnumField(HARM_CATEGORIES, { description: 'Harm category.' })
  category: HarmCategory;

  @EnumField(HARM_BLOCK_THRESHOLDS, { description: 'From which probability content is blocked.' })
  threshold: HarmBlockThreshold;
}
