import { Field, FieldOptions } from './field.decorator';
import { checkForwardedUrlValue } from './forwarded-url.check';
import {
  checkBase64,
  checkBoolean,
  checkHttpUrl,
  checkInteger,
  checkIsoDate,
  checkList,
  checkNumber,
  checkOneOf,
  checkString,
  ListRules,
  listSchema,
  NumberBounds,
  StringRules,
} from './value-checks.util';

export function StringField(options: FieldOptions & StringRules): PropertyDecorator {
  const schema = {
    type: String,
    ...(options.nonEmpty ? { minLength: 1 } : {}),
    ...(options.maxLength !== undefined ? { maxLength: options.maxLength } : {}),
    ...(options.pattern ? { pattern: options.pattern.source } : {}),
  };
  return Field(options, schema, 'string', (value) => checkString(value, options));
}

export function NumberField(options: FieldOptions & NumberBounds): PropertyDecorator {
  const { min, max } = options;
  return Field(options, { type: Number, minimum: min, maximum: max }, 'number', (value) =>
    checkNumber(value, { min, max }),
  );
}

export function IntegerField(options: FieldOptions & NumberBounds): PropertyDecorator {
  const { min, max } = options;
  return Field(options, { type: 'integer', minimum: min, maximum: max }, 'integer', (value) =>
    checkInteger(value, { min, max }),
  );
}

export function BooleanField(options: FieldOptions): PropertyDecorator {
  return Field(options, { type: Boolean }, 'boolean', checkBoolean);
}

export function EnumField(allowed: readonly string[], options: FieldOptions): PropertyDecorator {
  return Field(options, { enum: [...allowed], type: String }, 'oneOf', (value) => checkOneOf(value, allowed));
}

export function EnumListField(
  allowed: readonly string[],
  options: FieldOptions & ListRules,
): PropertyDecorator {
  const schema = { enum: [...allowed], isArray: true, type: String, ...listSchema(options) };
  return Field(options, schema, 'oneOfList', (value) =>
    checkList(value, (item) => checkOneOf(item, allowed), options),
  );
}

export function StringListField(
  options: FieldOptions & ListRules & { items?: StringRules },
): PropertyDecorator {
  return Field(options, { type: String, isArray: true, ...listSchema(options) }, 'stringList', (value) =>
    checkList(value, (item) => checkString(item, options.items), options),
  );
}

export function Base64Field(options: FieldOptions): PropertyDecorator {
  return Field(options, { type: String, format: 'byte' }, 'base64', checkBase64);
}

export function IsoDateField(options: FieldOptions): PropertyDecorator {
  return Field(options, { type: String, format: 'date-time' }, 'isoDate', checkIsoDate);
}

export function HttpUrlField(options: FieldOptions): PropertyDecorator {
  return Field(options, { type: String, format: 'uri' }, 'httpUrl', checkHttpUrl);
}

/**
 * A URL the gateway hands to an upstream, which fetches it: a string within `maxLength` that passes
 * the one forwarded-URL policy (docs/urls.md) with the operator's exceptions of the route's context.
 */
export function ForwardedUrlField(options: FieldOptions & { maxLength: number }): PropertyDecorator {
  const rules = { nonEmpty: true, maxLength: options.maxLength };
  const schema = { type: String, format: 'uri', minLength: 1, maxLength: options.maxLength };
  return Field(
    options,
    schema,
    'forwardedUrl',
    (value, context) => checkString(value, rules) ?? checkForwardedUrlValue(value as string, context),
  );
}
