import { ClassConstructor } from 'class-transformer';
import { FieldProblem } from './field-problems.util';
import { DtoClass, NestedDto, plainRulesOf, PropertyRules } from './plain-rules.registry';
import { validateBody } from './validate-body.util';
import { isJsonObject } from './value-checks.util';

export type CheckResult = { ok: true } | { ok: false; problems: FieldProblem[] };

/**
 * JSON that plainToInstance copies unchanged: objects with the ordinary prototype and no key it skips
 * (`__proto__`, `constructor`, names of `Object.prototype` methods), arrays without holes, primitives.
 * On such a body every rule sees the values it would see on the instance.
 */
function copiesUnchanged(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) {
    return (
      value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    );
  }
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let index = 0; index < value.length; index++) if (!copiesUnchanged(value[index])) return false;
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  const object = value as Record<string, unknown>;
  // Loops rather than every() with closures: this runs on every request body, nested objects included.
  for (const key in object) {
    if (key in Object.prototype) return false;
    if (object[key] !== undefined && !copiesUnchanged(object[key])) return false;
  }
  return true;
}

function nestedProvesValid(nested: NestedDto, value: unknown): boolean {
  const dtoClass = nested.dtoClass();
  if (!nested.list) return isJsonObject(value) && objectProvesValid(dtoClass, value);
  if (!Array.isArray(value)) return false;
  for (const item of value) if (!isJsonObject(item) || !objectProvesValid(dtoClass, item)) return false;
  return true;
}

/**
 * Rules read fields by value, so a field the body leaves out reads `undefined` here as on the instance
 * (where class fields exist from construction, set to `undefined`).
 */
function propertyProvesValid(property: PropertyRules, object: Record<string, unknown>): boolean {
  const value = object[property.name];
  // Like ValidateIf: a false condition skips every check of the property, nested ones included.
  for (const condition of property.conditions) if (!condition(object, value)) return true;
  for (const rule of property.rules) if (rule(value, object) !== undefined) return false;
  return property.nested === undefined || nestedProvesValid(property.nested, value);
}

function objectProvesValid(dtoClass: DtoClass, object: Record<string, unknown>): boolean {
  const properties = plainRulesOf(dtoClass);
  if (properties === undefined) return false;
  for (const property of properties) if (!propertyProvesValid(property, object)) return false;
  return true;
}

/**
 * True only when class-validator would find nothing wrong with the instance plainToInstance builds
 * from `plain`, told by running the same rules on the plain JSON. False when the body is invalid and
 * also whenever that cannot be told without building the instance.
 */
export function provesValid(dtoClass: DtoClass, plain: unknown): boolean {
  return isJsonObject(plain) && copiesUnchanged(plain) && objectProvesValid(dtoClass, plain);
}

/**
 * `validateBody` without the value, for routes that forward the body as received: a valid body is
 * accepted without building DTO instances (class-transformer and class-validator cost a large share of
 * a request's CPU); any other body goes through `validateBody` for its problems. Unknown fields pass.
 */
export function checkBody(dtoClass: ClassConstructor<object>, plain: unknown): CheckResult {
  if (provesValid(dtoClass, plain)) return { ok: true };
  const validation = validateBody(dtoClass, plain);
  return validation.ok ? { ok: true } : { ok: false, problems: validation.problems };
}
