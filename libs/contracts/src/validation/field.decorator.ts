import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { ValidateIf } from '@gateway/providers-core';
import type { BodyCheckContext } from './forwarded-url.check';
import { RecordCondition } from './plain-rules.registry';
import { ValidateRule } from './rule.decorator';

export interface FieldOptions {
  /** One short sentence for the OpenAPI document. */
  description: string;
  /** The field may be left out. */
  optional?: boolean;
  /** `null` is accepted and means "not set" (the OpenAI-style wire allows it on optional fields). */
  nullable?: boolean;
  example?: unknown;
  /** Documented default; a property initializer on the DTO applies it. */
  default?: unknown;
}

/** Optional fields of the OpenAI-style wire, where `null` is as good as leaving the field out. */
export const OPTIONAL_OR_NULL = { optional: true, nullable: true } as const;

export function combinePropertyDecorators(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, propertyKey) => {
    for (const decorator of decorators) decorator(target, propertyKey);
  };
}

function isSkipped(value: unknown, { optional, nullable }: FieldOptions): boolean {
  return (optional === true && value === undefined) || (nullable === true && value === null);
}

/** Decorators documenting a field (OpenAPI) and validating it with one rule. */
export function Field(
  options: FieldOptions,
  schema: ApiPropertyOptions,
  ruleName: string,
  /** A ValueCheck; a check that needs the operator's settings also takes the context (ForwardedUrlField). */
  check: (value: unknown, context: BodyCheckContext) => string | undefined,
): PropertyDecorator {
  const { description, optional, nullable, example } = options;
  const decorators = [
    ApiProperty({
      ...schema,
      description,
      required: optional !== true,
      ...(nullable ? { nullable: true } : {}),
      ...(example !== undefined ? { example } : {}),
      ...(options.default !== undefined ? { default: options.default } : {}),
    } as ApiPropertyOptions),
    ValidateRule(ruleName, (value, _object, context) =>
      value === undefined ? 'is required' : check(value, context),
    ),
  ];
  if (optional || nullable) {
    const validated = (_object: object, value: unknown) => !isSkipped(value, options);
    decorators.push(ValidateIf(validated), RecordCondition(validated));
  }
  return combinePropertyDecorators(...decorators);
}
