import { TranslationError } from '../translation-error';
import type { NativeSchema } from '../native/native-request.types';
import { toJsonSchema, toNativeSchema } from './json-schema.convert';

const nativeSchema = {
  type: 'OBJECT',
  description: 'A recipe',
  properties: {
    recipe_name: { type: 'STRING', example: 'Soup' },
    servings: { type: 'INTEGER', minimum: 1, maximum: 12, nullable: true },
    tags: { type: 'ARRAY', items: { type: 'STRING', enum: ['quick', 'vegan'] }, maxItems: 5 },
    source: {
      anyOf: [
        { type: 'STRING', format: 'uri' },
        { type: 'OBJECT', properties: { book: { type: 'STRING' } } },
      ],
    },
  },
  required: ['recipe_name'],
  propertyOrdering: ['recipe_name', 'servings', 'tags', 'source'],
};

const jsonSchema = {
  type: 'object',
  description: 'A recipe',
  properties: {
    recipe_name: { type: 'string', examples: ['Soup'] },
    servings: { type: ['integer', 'null'], minimum: 1, maximum: 12 },
    tags: { type: 'array', items: { type: 'string', enum: ['quick', 'vegan'] }, maxItems: 5 },
    source: {
      anyOf: [
        { type: 'string', format: 'uri' },
        { type: 'object', properties: { book: { type: 'string' } } },
      ],
    },
  },
  required: ['recipe_name'],
};

describe('toJsonSchema', () => {
  it('keeps a __proto__ keyword as a field instead of making it the prototype', () => {
    const converted = toJsonSchema(
      JSON.parse('{"type":"OBJECT","__proto__":{"polluted":true}}') as NativeSchema,
    );
    expect(Object.getPrototypeOf(converted)).toBe(Object.prototype);
    expect(JSON.stringify(converted)).toBe('{"type":"object","__proto__":{"polluted":true}}');
    expect((converted as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('lower-cases types, turns nullable into a null type, example into examples, drops propertyOrdering', () => {
    expect(toJsonSchema(nativeSchema)).toEqual(jsonSchema);
  });

  it('drops an unspecified type', () => {
    expect(toJsonSchema({ type: 'TYPE_UNSPECIFIED', description: 'x' })).toEqual({ description: 'x' });
  });
});

describe('toNativeSchema', () => {
  it('upper-cases types and turns a null type into nullable', () => {
    const { schema, droppedKeywords } = toNativeSchema(jsonSchema, 'schema');
    expect(schema).toEqual({
      type: 'OBJECT',
      description: 'A recipe',
      properties: {
        recipe_name: { type: 'STRING', example: 'Soup' },
        servings: { type: 'INTEGER', nullable: true, minimum: 1, maximum: 12 },
        tags: { type: 'ARRAY', items: { type: 'STRING', enum: ['quick', 'vegan'] }, maxItems: 5 },
        source: {
          anyOf: [
            { type: 'STRING', format: 'uri' },
            { type: 'OBJECT', properties: { book: { type: 'STRING' } } },
          ],
        },
      },
      required: ['recipe_name'],
    });
    expect(droppedKeywords).toEqual([]);
  });

  it('drops and reports keywords the native schema lacks, each once', () => {
    const { schema, droppedKeywords } = toNativeSchema(
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        additionalProperties: false,
        properties: {
          a: { type: 'object', additionalProperties: false },
          b: { allOf: [{ type: 'string' }] },
        },
      },
      'schema',
    );
    expect(schema).toEqual({ type: 'OBJECT', properties: { a: { type: 'OBJECT' }, b: {} } });
    expect(droppedKeywords).toEqual(['$schema', 'additionalProperties', 'allOf']);
  });

  it('turns oneOf into anyOf, a string const into an enum, several types into anyOf', () => {
    const { schema } = toNativeSchema(
      { oneOf: [{ const: 'a' }, { type: ['string', 'number', 'null'] }] },
      'schema',
    );
    expect(schema).toEqual({
      anyOf: [{ enum: ['a'] }, { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }], nullable: true }],
    });
  });

  it('refuses $ref, naming where it stands', () => {
    const convert = () =>
      toNativeSchema(
        { type: 'object', properties: { step: { $ref: '#/$defs/step' } } },
        'response_format.json_schema.schema',
      );
    expect(convert).toThrow(TranslationError);
    expect(convert).toThrow(
      expect.objectContaining({ field: 'response_format.json_schema.schema.properties.step.$ref' }),
    );
  });

  it('round-trips the native schema except the dropped ordering hint', () => {
    const { propertyOrdering: _ordering, ...withoutOrdering } = nativeSchema;
    expect(toNativeSchema(toJsonSchema(nativeSchema), 'schema').schema).toEqual({
      ...withoutOrdering,
      properties: {
        ...withoutOrdering.properties,
        servings: { type: 'INTEGER', nullable: true, minimum: 1, maximum: 12 },
      },
    });
  });
});
