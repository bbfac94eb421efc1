import { STORED_FIELD_LIMITS } from './stored-field-limits.constants';
import { checkPassThroughSize, findStoredFieldProblem, serialisedBytes } from './stored-fields.check';

const { passThroughBytes, unknownFields, unknownFieldsBytes } = STORED_FIELD_LIMITS;
const NAMED = { named: new Set(['model', 'prompt', 'metadata']), passThrough: ['metadata'] };

describe('findStoredFieldProblem', () => {
  it('counts bytes of the JSON text in UTF-8, escapes included', () => {
    expect(serialisedBytes({ a: 'é"' })).toBe('{"a":"é\\""}'.length + 1);
  });

  it('bounds a pass-through field by its JSON text', () => {
    const atCap = { note: 'x'.repeat(passThroughBytes - '{"note":""}'.length) };
    expect(checkPassThroughSize(atCap)).toBeUndefined();
    expect(findStoredFieldProblem({ model: 'm', metadata: { ...atCap, more: 1 } }, NAMED)).toEqual({
      field: 'metadata',
      message: `metadata must be at most ${passThroughBytes} bytes serialised as JSON`,
    });
  });

  it('names the unknown field one past the count, and the one past the size together', () => {
    const many = Object.fromEntries(Array.from({ length: unknownFields + 1 }, (_, i) => [`f${i}`, true]));
    expect(findStoredFieldProblem({ model: 'm', ...many }, NAMED)?.field).toBe(`f${unknownFields}`);
    const half = 'x'.repeat(unknownFieldsBytes / 2);
    expect(findStoredFieldProblem({ prompt: half + half, a: half, b: half }, NAMED)).toEqual({
      field: 'b',
      message: `b takes the fields the route does not name past ${unknownFieldsBytes} bytes serialised as JSON together`,
    });
  });

  it('lets named fields and a body within its caps through', () => {
    expect(
      findStoredFieldProblem({ model: 'm', prompt: 'x'.repeat(100_000), extra: 1 }, NAMED),
    ).toBeUndefined();
  });
});
