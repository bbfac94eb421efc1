/**
 * The native wire accepts every field name in snake_case too (`system_instruction`, `inline_data`,
 * `mime_type` …; upstreams.md §1.3). Translators and validators read camelCase only, so snake_case
 * names are renamed first. Only names at field positions are renamed: user data (function call
 * `args`, function `response`, the property names of a schema, enum values, examples) is copied
 * untouched. When both spellings of a field are present, the camelCase one wins.
 */

interface FieldRule {
  normalise(value: unknown): unknown;
  usesSnakeCase(value: unknown): boolean;
}

type JsonObject = Record<string, unknown>;

const SNAKE_CASE_NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;

function toCamelCase(name: string): string {
  return SNAKE_CASE_NAME.test(name)
    ? name.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase())
    : name;
}

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** User data: copied as is, never inspected. */
const userData: FieldRule = { normalise: (value) => value, usesSnakeCase: () => false };

/** An object whose names at every depth are field names, never user keys. */
const structural: FieldRule = {
  normalise: (value) =>
    Array.isArray(value)
      ? value.map(structural.normalise)
      : isJsonObject(value)
        ? renameFields(value, () => structural)
        : value,
  usesSnakeCase: (value) =>
    Array.isArray(value)
      ? value.some(structural.usesSnakeCase)
      : isJsonObject(value) &&
        Object.entries(value).some(
          ([name, child]) => SNAKE_CASE_NAME.test(name) || structural.usesSnakeCase(child),
        ),
};

/**
 * Built with `Object.fromEntries`, which defines each field: an assignment (`renamed[name] = value`)
 * would turn a `__proto__` field into the object's prototype. The validator refuses such a field next.
 */
function renameFields(object: JsonObject, ruleFor: (camelName: string) => FieldRule): JsonObject {
  const renamed: [string, unknown][] = [];
  for (const [name, value] of Object.entries(object)) {
    const camelName = toCamelCase(name);
    if (camelName !== name && Object.hasOwn(object, camelName)) continue;
    renamed.push([camelName, ruleFor(camelName).normalise(value)]);
  }
  return Object.fromEntries(renamed);
}

/** An object with the given field rules; fields not listed follow `otherFields`. */
function objectOf(fields: Record<string, FieldRule>, otherFields: FieldRule = userData): FieldRule {
  // Own fields only: a body field named `constructor` or `__proto__` must not find Object.prototype's.
  const ruleFor = (camelName: string): FieldRule =>
    Object.hasOwn(fields, camelName) ? fields[camelName] : otherFields;
  return {
    normalise: (value) => (isJsonObject(value) ? renameFields(value, ruleFor) : value),
    usesSnakeCase: (value) =>
      isJsonObject(value) &&
      Object.entries(value).some(
        ([name, child]) => SNAKE_CASE_NAME.test(name) || ruleFor(toCamelCase(name)).usesSnakeCase(child),
      ),
  };
}

function arrayOf(itemRule: FieldRule): FieldRule {
  return {
    normalise: (value) => (Array.isArray(value) ? value.map(itemRule.normalise) : value),
    usesSnakeCase: (value) => Array.isArray(value) && value.some(itemRule.usesSnakeCase),
  };
}

/** A map keyed by user names (schema properties): keys kept, values follow `valueRule`. */
function mapOf(valueRule: FieldRule): FieldRule {
  return {
    normalise: (value) =>
      isJsonObject(value)
        ? Object.fromEntries(Object.entries(value).map(([key, child]) => [key, valueRule.normalise(child)]))
        : value,
    usesSnakeCase: (value) => isJsonObject(value) && Object.values(value).some(valueRule.usesSnakeCase),
  };
}

/** Defers to a rule defined later, for recursive shapes. */
function lazy(rule: () => FieldRule): FieldRule {
  return {
    normalise: (value) => rule().normalise(value),
    usesSnakeCase: (value) => rule().usesSnakeCase(value),
  };
}

const nestedSchema = lazy(() => schema);
const schema: FieldRule = objectOf({
  properties: mapOf(nestedSchema),
  items: nestedSchema,
  anyOf: arrayOf(nestedSchema),
});

const part = objectOf({
  inlineData: structural,
  fileData: structural,
  functionCall: objectOf({}),
  functionResponse: objectOf({}),
});

const content = objectOf({ parts: arrayOf(part) });

const functionDeclaration = objectOf({ parameters: schema, response: schema });

const tool = objectOf({ functionDeclarations: arrayOf(functionDeclaration) }, structural);

const generationConfig = objectOf({
  responseSchema: schema,
  speechConfig: structural,
  thinkingConfig: structural,
  imageConfig: structural,
});

const nativeRequest = objectOf({
  contents: arrayOf(content),
  systemInstruction: content,
  generationConfig,
  safetySettings: structural,
  tools: arrayOf(tool),
  toolConfig: structural,
});

/**
 * Whether any field name of the request is spelled in snake_case. Allocates nothing, so the common
 * camelCase request skips `normaliseNativeRequest` for the price of one walk.
 */
export function requestUsesSnakeCase(body: unknown): boolean {
  return nativeRequest.usesSnakeCase(body);
}

/**
 * A new request object with every snake_case field name renamed to camelCase; the input is not
 * changed. A body that is not an object is returned as is, for the validator to reject.
 */
export function normaliseNativeRequest(body: JsonObject): JsonObject;
export function normaliseNativeRequest(body: unknown): unknown;
export function normaliseNativeRequest(body: unknown): unknown {
  return nativeRequest.normalise(body);
}
