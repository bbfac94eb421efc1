import { Type } from 'class-transformer';
import { ValidateNested } from '@gateway/providers-core';
import { combinePropertyDecorators, Field, FieldOptions } from './field.decorator';
import { DtoClass, RecordNested } from './plain-rules.registry';
import { checkJsonObject, checkList, ListRules, listSchema } from './value-checks.util';

/**
 * @nestjs/swagger recognises a lazy type only by the function's name being `type`, which an arrow
 * function gets when written as the `type` property of an object literal.
 */
function lazySchemaType(dtoClass: () => DtoClass): { type: () => DtoClass } {
  return { type: () => dtoClass() };
}

/** An object validated by its own DTO class. */
export function NestedField(dtoClass: () => DtoClass, options: FieldOptions): PropertyDecorator {
  return combinePropertyDecorators(
    Field(options, lazySchemaType(dtoClass), 'object', checkJsonObject),
    Type(dtoClass),
    ValidateNested(),
    RecordNested({ dtoClass, list: false }),
  );
}

/**
 * class-validator reports an item that is a string, number or null at the item's own path, but walks
 * into an array item finding nothing to check; such an item is refused here.
 */
function checkNotList(item: unknown): string | undefined {
  return Array.isArray(item) ? 'must be an object' : undefined;
}

/** An array of objects validated by their DTO class. */
export function NestedListField(
  dtoClass: () => DtoClass,
  options: FieldOptions & ListRules,
): PropertyDecorator {
  return combinePropertyDecorators(
    Field(
      options,
      { ...lazySchemaType(dtoClass), isArray: true, ...listSchema(options) },
      'objectList',
      (value) => checkList(value, checkNotList, options),
    ),
    Type(dtoClass),
    ValidateNested({ each: true }),
    RecordNested({ dtoClass, list: true }),
  );
}

/** A free-form JSON object (a schema, function arguments, tool options) that is forwarded untouched. */
export function JsonObjectField(options: FieldOptions): PropertyDecorator {
  return Field(options, { type: 'object', additionalProperties: true }, 'jsonObject', checkJsonObject);
}
