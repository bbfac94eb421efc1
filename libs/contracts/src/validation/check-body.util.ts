import { ClassConstructor } from 'class-transformer';
import { FieldProblem, toProblem } from './field-problems.util';
import { type BodyCheckContext, STRICT_BODY_CHECKS } from './forwarded-url.check';
import { findShapeProblem } from './json-shape.check';
import { DtoClass, NestedDto, plainRulesOf, PropertyRules } from './plain-rules.registry';
import { NOT_AN_OBJECT, validateBody } from './validate-body.util';
import { isJsonObject } from './value-checks.util';

export type CheckResult = { ok: true } | { ok: false; problems: FieldProblem[] };

const VALID: CheckResult = Object.freeze({ ok: true });

/**
 * Whether the class and every class nested in it have plain rules, so that a plain body can be judged
 * without building instances (see plain-rules.registry.ts).
 */
const describedClasses = new WeakMap<DtoClass, boolean>();

function everyClassHasPlainRules(dtoClass: DtoClass, seen: Set<DtoClass>): boolean {
  if (seen.has(dtoClass)) return true;
  seen.add(dtoClass);
  const properties = plainRulesOf(dtoClass);
  return (
    properties !== undefined &&
    properties.every(
      (property) => !property.nested || everyClassHasPlainRules(property.nested.dtoClass(), seen),
    )
  );
}

function describedByPlainRules(dtoClass: DtoClass): boolean {
  let described = describedClasses.get(dtoClass);
  if (described === undefined) {
    described = everyClassHasPlainRules(dtoClass, new Set());
    describedClasses.set(dtoClass, described);
  }
  return described;
}

function nestedProvesValid(nested: NestedDto, value: unknown, context: BodyCheckContext): boolean {
  const dtoClass = nested.dtoClass();
  if (!nested.list) return isJsonObject(value) && objectProvesValid(dtoClass, value, context);
  if (!Array.isArray(value)) return false;
  for (const item of value)
    if (!isJsonObject(item) || !objectProvesValid(dtoClass, item, context)) return false;
  return true;
}

/**
 * Rules read fields by value, so a field the body leaves out reads `undefined` here as on the instance
 * (where class fields exist from construction, set to `undefined`).
 */
function propertyProvesValid(
  property: PropertyRules,
  object: Record<string, unknown>,
  context: BodyCheckContext,
): boolean {
  const value = object[property.name];
  // Like ValidateIf: a false condition skips every check of the property, nested ones included.
  for (const condition of property.conditions) if (!condition(object, value)) return true;
  for (const rule of property.rules) if (rule(value, object, context) !== undefined) return false;
  return property.nested === undefined || nestedProvesValid(property.nested, value, context);
}

/** The valid case, the common one: no paths built, nothing allocated. */
function objectProvesValid(
  dtoClass: DtoClass,
  object: Record<string, unknown>,
  context: BodyCheckContext,
): boolean {
  for (const property of plainRulesOf(dtoClass) ?? [])
    if (!propertyProvesValid(property, object, context)) return false;
  return true;
}

function propertyPath(objectPath: string, name: string): string {
  if (name === '') return objectPath;
  return objectPath === '' ? name : `${objectPath}.${name}`;
}

/**
 * class-validator's walk with `stopAtFirstError`, on the plain body: per property, in declaration
 * order, a false condition skips it; the first rule that fails is its one problem; only a property
 * without a problem is walked into, its list items one by one, an item that is not an object being
 * a problem of its own.
 */
function collectObjectProblems(
  dtoClass: DtoClass,
  object: Record<string, unknown>,
  objectPath: string,
  into: FieldProblem[],
  context: BodyCheckContext,
): void {
  for (const property of plainRulesOf(dtoClass) ?? []) {
    const value = object[property.name];
    if (property.conditions.some((condition) => !condition(object, value))) continue;
    const path = propertyPath(objectPath, property.name);
    const failed = property.rules.reduce<string | undefined>(
      (problem, rule) => problem ?? rule(value, object, context),
      undefined,
    );
    if (failed !== undefined) into.push(toProblem(path, failed));
    else if (property.nested !== undefined && value !== undefined)
      collectNestedProblems(property.nested, value, path, into, context);
  }
}

function collectNestedProblems(
  nested: NestedDto,
  value: unknown,
  path: string,
  into: FieldProblem[],
  context: BodyCheckContext,
): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => collectNestedProblems(nested, item, `${path}[${index}]`, into, context));
  } else if (isJsonObject(value)) {
    collectObjectProblems(nested.dtoClass(), value, path, into, context);
  } else {
    into.push(toProblem(path, 'must be an object'));
  }
}

// perf-machinery: plain-rules (docs/performance-machinery.md)
/**
 * `validateBody` without the value, for routes that forward the body as received, and without
 * instances: class-transformer and class-validator cost about 10 µs per nested object (seconds for a
 * body of 10,000-item lists), so the plain rules judge the body, and report its problems as
 * class-validator would. Only a class the plain rules cannot describe goes through `validateBody`.
 * The shape limits are checked first, so every later walk is bounded. Unknown fields pass.
 *
 * `context` carries the operator's settings to the rules that need them: a URL the route hands to an
 * upstream is judged by the forwarded-URL policy during this one walk, with the route's
 * SSRF_ALLOW_HOSTS (docs/urls.md). Without it, and on validateBody's path, no exception applies.
 */
export function checkBody(
  dtoClass: ClassConstructor<object>,
  plain: unknown,
  context: BodyCheckContext = STRICT_BODY_CHECKS,
): CheckResult {
  if (!isJsonObject(plain)) return { ok: false, problems: [{ ...NOT_AN_OBJECT }] };
  const shapeProblem = findShapeProblem(plain);
  if (shapeProblem !== undefined) return { ok: false, problems: [shapeProblem] };
  if (!describedByPlainRules(dtoClass)) {
    const validation = validateBody(dtoClass, plain);
    return validation.ok ? VALID : { ok: false, problems: validation.problems };
  }
  if (objectProvesValid(dtoClass, plain, context)) return VALID;
  const problems: FieldProblem[] = [];
  collectObjectProblems(dtoClass, plain, '', problems, context);
  return { ok: false, problems };
}
