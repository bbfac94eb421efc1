import type { NativeSchema } from '../native/native-request.types';
import { TranslationError } from '../translation-error';

type SchemaObject = Record<string, unknown>;

function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapValues(map: SchemaObject, convert: (value: unknown, key: string) => unknown): SchemaObject {
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [key, convert(value, key)]));
}

/**
 * Native schema → JSON Schema. The native dialect writes types in upper case and marks optional
 * values with `nullable`; JSON Schema wants lower-case types and `null` as a type.
 * `propertyOrdering` has no JSON Schema meaning and is dropped; `example` becomes `examples`.
 * Keywords are copied as entries, never assigned: a `__proto__` keyword stays a field.
 */
export function toJsonSchema(schema: NativeSchema): SchemaObject {
  const converted: [string, unknown][] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    switch (keyword) {
      case 'type':
        if (typeof value === 'string' && value !== 'TYPE_UNSPECIFIED') {
          const type = value.toLowerCase();
          converted.push(['type', schema.nullable === true ? [type, 'null'] : type]);
        }
        break;
      case 'nullable':
      case 'propertyOrdering':
        break;
      case 'example':
        converted.push(['examples', [value]]);
        break;
      case 'properties':
        converted.push(['properties', isSchemaObject(value) ? mapValues(value, convertNested) : value]);
        break;
      case 'items':
        converted.push(['items', convertNested(value)]);
        break;
      case 'anyOf':
        converted.push(['anyOf', Array.isArray(value) ? value.map(convertNested) : value]);
        break;
      default:
        converted.push([keyword, value]);
    }
  }
  return Object.fromEntries(converted);
}

function convertNested(value: unknown): unknown {
  return isSchemaObject(value) ? toJsonSchema(value) : value;
}

/** Keywords with the same name and meaning in JSON Schema and the native schema. */
const SHARED_KEYWORDS: ReadonlySet<string> = new Set([
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'required',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'default',
]);

export interface NativeSchemaConversion {
  schema: NativeSchema;
  /** JSON Schema keywords with no native equivalent, removed (each name once). */
  droppedKeywords: string[];
}

/**
 * JSON Schema → native schema. Keywords the native schema lacks (`additionalProperties`,
 * `$schema`, `allOf`, tuple `items` …) are dropped and reported, which loosens the constraint but
 * keeps it valid. `$ref` is refused: dropping it would change the schema's meaning.
 * `oneOf` becomes `anyOf`; `const` (string) becomes a one-value `enum`; `examples[0]` becomes `example`.
 *
 * @param field dotted path of the schema, used to name a refused `$ref`.
 */
export function toNativeSchema(schema: SchemaObject, field: string): NativeSchemaConversion {
  const droppedKeywords = new Set<string>();
  const converted = convertToNative(schema, field, droppedKeywords);
  return { schema: converted, droppedKeywords: [...droppedKeywords] };
}

function convertToNative(schema: SchemaObject, field: string, dropped: Set<string>): NativeSchema {
  const converted: NativeSchema = {};
  const nested = (value: unknown, path: string): unknown =>
    isSchemaObject(value) ? convertToNative(value, path, dropped) : value;
  for (const [keyword, value] of Object.entries(schema)) {
    if (SHARED_KEYWORDS.has(keyword)) {
      converted[keyword] = value;
      continue;
    }
    switch (keyword) {
      case 'type':
        Object.assign(converted, nativeTypeFrom(value));
        break;
      case '$ref':
        throw new TranslationError(
          `${field}.$ref`,
          'schema references ($ref) cannot be carried into the native schema; inline the referenced definition',
        );
      case 'properties':
        converted.properties = isSchemaObject(value)
          ? mapValues(value, (property, name) => nested(property, `${field}.properties.${name}`))
          : value;
        break;
      case 'items':
        if (isSchemaObject(value)) converted.items = nested(value, `${field}.items`);
        else dropped.add('items');
        break;
      case 'anyOf':
      case 'oneOf':
        converted.anyOf = Array.isArray(value)
          ? value.map((member, index) => nested(member, `${field}.${keyword}[${index}]`))
          : value;
        break;
      case 'const':
        if (typeof value === 'string') converted.enum = [value];
        else dropped.add(keyword);
        break;
      case 'examples':
        if (Array.isArray(value) && value.length > 0) converted.example = value[0];
        break;
      default:
        dropped.add(keyword);
    }
  }
  return converted;
}

/** `"string"` → STRING; `["string","null"]` → STRING + nullable; several non-null types → anyOf. */
function nativeTypeFrom(type: unknown): NativeSchema {
  if (typeof type === 'string') return { type: type.toUpperCase() };
  if (!Array.isArray(type)) return {};
  const nonNullTypes = type.filter(
    (member): member is string => typeof member === 'string' && member !== 'null',
  );
  const nullable = type.includes('null') ? { nullable: true } : {};
  if (nonNullTypes.length === 1) return { type: nonNullTypes[0].toUpperCase(), ...nullable };
  if (nonNullTypes.length === 0) return nullable;
  return { anyOf: nonNullTypes.map((member) => ({ type: member.toUpperCase() })), ...nullable };
}
