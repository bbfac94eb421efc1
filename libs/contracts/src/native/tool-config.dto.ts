import { NestedField } from '../validation/nested-field.decorator';
import { EnumField, StringListField } from '../validation/scalar-field.decorator';
import { FUNCTION_CALLING_MODES, FunctionCallingMode } from './native-values.constants';
import { TEXT_REQUEST_LIMITS } from '../validation/request-limits.constants';

export class FunctionCallingConfigDto {
  @EnumField(FUNCTION_CALLING_MODES, { description: 'Whether and how functions are called.', optional: true })
  mode?: FunctionCallingMode;

  @StringListField({
    description: 'Functions the model may call.',
    optional: true,
    maxItems: TEXT_REQUEST_LIMITS.functionsPerList,
    items: { nonEmpty: true, maxLength: TEXT_REQUEST_LIMITS.identifierLength },
  })
  allowedFunctionNames?: string[];
}

export class ToolConfigDto {
  @NestedField(() => FunctionCallingConfigDto, { description: 'Function calling settings.', optional: true })
  functionCallingConfig?: FunctionCallingConfigDto;
}
