import { NestedField } from '../validation/nested-field.decorator';
import { EnumField, StringListField } from '../validation/scalar-field.decorator';
import { FUNCTION_CALLING_MODES, FunctionCallingMode } from './native-values.constants';

export class FunctionCallingConfigDto {
  @EnumField(FUNCTION_CALLING_MODES, { description: 'Whether and how functions are called.', optional: true })
  mode?: FunctionCallingMode;

  @StringListField({
    description: 'Functions the model may call.',
    optional: true,
    items: { nonEmpty: true },
  })
  allowedFunctionNames?: string[];
}

export class ToolConfigDto {
  @NestedField(() => FunctionCallingConfigDto, { description: 'Function calling settings.', optional: true })
  functionCallingConfig?: FunctionCallingConfigDto;
}
