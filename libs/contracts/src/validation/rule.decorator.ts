import 'reflect-metadata';
import { registerDecorator, ValidateBy, type ValidationArguments } from '@gateway/providers-core';
import { type BodyCheckContext, STRICT_BODY_CHECKS } from './forwarded-url.check';
import { RecordRule } from './plain-rules.registry';

/**
 * Answers `undefined` when acceptable, else the problem in words (see `ValueCheck`). `context` carries
 * the operator's settings a few rules need (a URL handed to an upstream): checkBody passes the route's.
 */
export type Rule = (
  value: unknown,
  object: Record<string, unknown>,
  context: BodyCheckContext,
) => string | undefined;

/**
 * Property name under which rules about a whole object are registered. class-validator only knows
 * property rules; an empty name makes the problem land on the object's own path
 * (`contents[0].parts[0]`) when the errors are turned into field paths.
 */
export const WHOLE_OBJECT = '';

function objectOf(args: ValidationArguments | undefined): Record<string, unknown> {
  return (args?.object ?? {}) as Record<string, unknown>;
}

/**
 * One class-validator constraint whose message is computed by the same rule that judged the value, so
 * a field reports one precise problem instead of a list of generic ones.
 */
export function ValidateRule(name: string, rule: Rule): PropertyDecorator {
  const validateBy = ValidateBy({
    name,
    validator: {
      // class-validator has no per-call context: its path applies the policy without exceptions.
      validate: (value: unknown, args?: ValidationArguments) =>
        rule(value, objectOf(args), STRICT_BODY_CHECKS) === undefined,
      defaultMessage: (args?: ValidationArguments) =>
        rule(args?.value, objectOf(args), STRICT_BODY_CHECKS) ?? '',
    },
  });
  const recordRule = RecordRule(rule);
  return (target, propertyKey) => {
    validateBy(target, propertyKey);
    recordRule(target, propertyKey);
  };
}

/** A rule about the object as a whole (which fields appear together); reported at the object's path. */
export function ValidateObjectRule(
  name: string,
  rule: (object: Record<string, unknown>) => string | undefined,
) {
  return (target: abstract new (...args: never[]) => object): void => {
    registerDecorator({
      name,
      target,
      propertyName: WHOLE_OBJECT,
      validator: {
        validate: (_value: unknown, args?: ValidationArguments) => rule(objectOf(args)) === undefined,
        defaultMessage: (args?: ValidationArguments) => rule(objectOf(args)) ?? '',
      },
    });
    RecordRule((_value, object) => rule(object))(target.prototype as object, WHOLE_OBJECT);
  };
}
