import { Transform } from 'class-transformer';
import { combinePropertyDecorators, Field, FieldOptions } from './field.decorator';
import { RecordTransform } from './plain-rules.registry';
import { checkMicros, checkRecord, isJsonObject, toMicrosString } from './value-checks.util';

const MICROS_PATTERN = '^[0-9]+$';

/**
 * Money in micros (1 unit = 1,000,000 micros). It travels as a decimal string so no float ever
 * touches it; a safe integer is accepted too and normalised to its string before validation.
 */
export function MicrosField(options: FieldOptions & { positive?: boolean }): PropertyDecorator {
  return combinePropertyDecorators(
    RecordTransform(),
    Transform(({ value }: { value: unknown }) => toMicrosString(value)),
    Field(options, { type: String, pattern: MICROS_PATTERN, example: '1500000' }, 'micros', (value) =>
      checkMicros(value, options),
    ),
  );
}

/** A map from a tier name (size, quality, resolution) to micros, normalised like `MicrosField`. */
export function MicrosRecordField(options: FieldOptions): PropertyDecorator {
  return combinePropertyDecorators(
    RecordTransform(),
    Transform(({ value }: { value: unknown }) =>
      isJsonObject(value)
        ? Object.fromEntries(Object.entries(value).map(([tier, micros]) => [tier, toMicrosString(micros)]))
        : value,
    ),
    Field(
      options,
      {
        type: 'object',
        additionalProperties: { type: 'string', pattern: MICROS_PATTERN },
        example: { '1K': '40000' },
      },
      'microsRecord',
      (value) => checkRecord(value, (micros) => checkMicros(micros)),
    ),
  );
}
