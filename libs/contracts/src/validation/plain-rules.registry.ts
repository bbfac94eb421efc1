import { getMetadataStorage, ValidationTypes } from '@gateway/providers-core';
import type { Rule } from './rule.decorator';

/**
 * The validation decorators record here, beside class-validator's metadata, the functions they give it,
 * so that a plain body can be checked with the same functions without building DTO instances. Only the
 * decorators of this folder record; a class carrying any other validation decorator is refused by
 * `plainRulesOf`. class-transformer decorators used directly (`@Type(() => Number)` on an admin query)
 * are not seen: such classes stay on `validateBody`.
 */

export type DtoClass = new () => object;

/** Whether a property is validated at all, like class-validator's `ValidateIf`. */
export type Condition = (object: Record<string, unknown>, value: unknown) => boolean;

/** A property holding an object, or a list of objects, validated by their own DTO class. */
export interface NestedDto {
  dtoClass: () => DtoClass;
  list: boolean;
}

/** What class-validator runs for one property of one class, as far as the plain walk needs it. */
export interface PropertyRules {
  name: string;
  conditions: Condition[];
  rules: Rule[];
  nested?: NestedDto;
}

type Recorded =
  | { kind: 'rule'; property: string; rule: Rule }
  | { kind: 'condition'; property: string; condition: Condition }
  | { kind: 'nested'; property: string; nested: NestedDto };

/** The class-validator metadata type each recorded function was registered as. */
const VALIDATION_TYPES: Record<Recorded['kind'], string> = {
  rule: ValidationTypes.CUSTOM_VALIDATION,
  condition: ValidationTypes.CONDITIONAL_VALIDATION,
  nested: ValidationTypes.NESTED_VALIDATION,
};

const recordedByPrototype = new WeakMap<object, Recorded[]>();
const transformingPrototypes = new WeakSet<object>();
const plainRulesByClass = new WeakMap<DtoClass, PropertyRules[] | undefined>();

function record(prototype: object, recorded: Recorded): void {
  const list = recordedByPrototype.get(prototype);
  if (list) list.push(recorded);
  else recordedByPrototype.set(prototype, [recorded]);
}

export function RecordRule(rule: Rule): PropertyDecorator {
  return (prototype, property) => record(prototype, { kind: 'rule', property: String(property), rule });
}

export function RecordCondition(condition: Condition): PropertyDecorator {
  return (prototype, property) =>
    record(prototype, { kind: 'condition', property: String(property), condition });
}

export function RecordNested(nested: NestedDto): PropertyDecorator {
  return (prototype, property) => record(prototype, { kind: 'nested', property: String(property), nested });
}

/** The property's value is changed before validation, so the plain value is not what gets validated. */
export function RecordTransform(): PropertyDecorator {
  return (prototype) => transformingPrototypes.add(prototype);
}

/** The class's prototype, then its ancestors' nearest first: where its decorators were applied. */
function prototypeChain(dtoClass: DtoClass): object[] {
  const chain: object[] = [];
  let prototype: object = dtoClass.prototype;
  while (prototype !== Object.prototype) {
    chain.push(prototype);
    prototype = Object.getPrototypeOf(prototype) as object;
  }
  return chain;
}

/** A recorded function and the index, in the prototype chain, of the class that declared it. */
interface Owned {
  owner: number;
  recorded: Recorded;
}

/**
 * class-validator's inheritance: what a class declares for a property replaces everything its
 * ancestors declare of the same kind for that property; otherwise every ancestor's declaration applies.
 */
function inherited(chain: object[]): Owned[] {
  const [own = [], ...ancestors] = chain.map((prototype, owner) =>
    (recordedByPrototype.get(prototype) ?? []).map((recorded) => ({ owner, recorded })),
  );
  const replaced = ({ recorded }: Owned) =>
    own.some((mine) => mine.recorded.property === recorded.property && mine.recorded.kind === recorded.kind);
  return [...own, ...ancestors.flat().filter((entry) => !replaced(entry))];
}

/** True when class-validator runs exactly the recorded functions for the class, nothing it alone knows. */
function describesAllMetadata(dtoClass: DtoClass, chain: object[], owned: Owned[]): boolean {
  const owners = chain.map((prototype) => prototype.constructor);
  const ours = owned.map(({ owner, recorded }) =>
    JSON.stringify([owner, VALIDATION_TYPES[recorded.kind], recorded.property]),
  );
  const theirs = getMetadataStorage()
    .getTargetValidationMetadatas(dtoClass, '', false, false)
    .map((metadata) =>
      JSON.stringify([
        owners.findIndex((owner) => owner === metadata.target),
        metadata.type,
        metadata.propertyName,
      ]),
    );
  return JSON.stringify(ours.sort()) === JSON.stringify(theirs.sort());
}

/**
 * plainToInstance starts from `new dtoClass()`: a property initializer (a default) puts a value the
 * plain body does not have, and a method or accessor makes it skip or reroute a body field.
 */
function buildsFromBodyAlone(dtoClass: DtoClass, chain: object[]): boolean {
  const blank = new dtoClass() as Record<string, unknown>;
  return (
    Object.values(blank).every((value) => value === undefined) &&
    chain.every((prototype) => Object.getOwnPropertyNames(prototype).every((name) => name === 'constructor'))
  );
}

function computePlainRules(dtoClass: DtoClass): PropertyRules[] | undefined {
  const chain = prototypeChain(dtoClass);
  const owned = inherited(chain);
  if (owned.length === 0 || chain.some((prototype) => transformingPrototypes.has(prototype)))
    return undefined;
  if (!buildsFromBodyAlone(dtoClass, chain) || !describesAllMetadata(dtoClass, chain, owned))
    return undefined;
  const properties = new Map<string, PropertyRules>();
  for (const { recorded } of owned) {
    let property = properties.get(recorded.property);
    if (!property) {
      property = { name: recorded.property, conditions: [], rules: [] };
      properties.set(recorded.property, property);
    }
    if (recorded.kind === 'rule') property.rules.push(recorded.rule);
    else if (recorded.kind === 'condition') property.conditions.push(recorded.condition);
    // class-transformer builds the value with the nearest class's type; own entries come first.
    else property.nested ??= recorded.nested;
  }
  // class-transformer drops a field named like a member of Object.prototype (`toString`): the plain
  // body would show a value the instance lacks.
  if ([...properties.keys()].some((name) => name in Object.prototype)) return undefined;
  return [...properties.values()];
}

/**
 * The rules class-validator would run on an instance of the class, per property (whole-object rules
 * under `WHOLE_OBJECT`), or `undefined` when a plain body cannot stand in for the instance.
 */
export function plainRulesOf(dtoClass: DtoClass): PropertyRules[] | undefined {
  const known = plainRulesByClass.get(dtoClass);
  if (known !== undefined || plainRulesByClass.has(dtoClass)) return known;
  const computed = computePlainRules(dtoClass);
  plainRulesByClass.set(dtoClass, computed);
  return computed;
}
