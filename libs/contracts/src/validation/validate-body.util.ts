import { ClassConstructor, ClassTransformOptions, plainToInstance } from 'class-transformer';
import { validateSync, type ValidatorOptions } from '@gateway/providers-core';
import { FieldProblem, toFieldProblems, toProblem, WHOLE_BODY_FIELD } from './field-problems.util';
import { BODY_SHAPE_LIMITS } from './body-limits.constants';
import { findShapeProblem } from './json-shape.check';
import { findUnstorableText, UNSTORABLE_TEXT_PROBLEM } from './storable-text.check';
import { isJsonObject } from './value-checks.util';

export type { FieldProblem } from './field-problems.util';

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

export interface ValidateBodyOptions {
  /**
   * Refuse fields the DTO does not declare (admin bodies). By default they pass through and stay on
   * the value, because the native pass-through forwards fields the gateway does not know yet.
   */
  refuseUnknownFields?: boolean;
  /**
   * Refuse NUL and unpaired surrogates in every string and key, at any depth (admin bodies and
   * queries): each value is written to Postgres as sent, and a text column refuses them.
   */
  refuseUnstorableText?: boolean;
}

/** Wrong types are refused, never coerced: only explicit `@Type`/`@Transform` decorators convert. */
const TRANSFORM_OPTIONS: ClassTransformOptions = { enableImplicitConversion: false };

const VALIDATOR_OPTIONS: ValidatorOptions = {
  forbidUnknownValues: false,
  whitelist: false,
  stopAtFirstError: true,
  validationError: { target: false, value: true },
};

const STRICT_VALIDATOR_OPTIONS: ValidatorOptions = {
  ...VALIDATOR_OPTIONS,
  whitelist: true,
  forbidNonWhitelisted: true,
};

export const NOT_AN_OBJECT: FieldProblem = {
  field: WHOLE_BODY_FIELD,
  message: 'request body must be a JSON object',
};

/** How many problems the one-sentence description names before it summarises the rest. */
const DESCRIBED_PROBLEMS = 20;

export function validateBody<T extends object>(
  dtoClass: ClassConstructor<T>,
  plain: unknown,
  options: ValidateBodyOptions = {},
): ValidationResult<T> {
  if (!isJsonObject(plain)) return { ok: false, problems: [{ ...NOT_AN_OBJECT }] };
  // Before class-transformer, which recurses into every level and throws on a `constructor` key.
  const shapeProblem = findShapeProblem(plain, BODY_SHAPE_LIMITS, {
    refuseObjectMemberKeys: options.refuseUnknownFields,
  });
  if (shapeProblem !== undefined) return { ok: false, problems: [shapeProblem] };
  const unstorable = options.refuseUnstorableText ? findUnstorableText(plain) : undefined;
  if (unstorable !== undefined) {
    return { ok: false, problems: [toProblem(unstorable, UNSTORABLE_TEXT_PROBLEM)] };
  }
  const value = plainToInstance(dtoClass, plain, TRANSFORM_OPTIONS);
  const errors = validateSync(
    value,
    options.refuseUnknownFields ? STRICT_VALIDATOR_OPTIONS : VALIDATOR_OPTIONS,
  );
  return errors.length === 0 ? { ok: true, value } : { ok: false, problems: toFieldProblems(errors) };
}

/** One sentence naming every field at fault, for the error message of the route's dialect. */
export function describeProblems(problems: readonly FieldProblem[]): string {
  if (problems.length === 0) return 'The request is invalid.';
  const named = problems.slice(0, DESCRIBED_PROBLEMS).map((problem) => problem.message);
  const rest = problems.length - named.length;
  const summary = rest > 0 ? `; and ${rest} more problem${rest === 1 ? '' : 's'}` : '';
  return `Invalid request: ${named.join('; ')}${summary}.`;
}
