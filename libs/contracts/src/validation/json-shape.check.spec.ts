import { findShapeProblem } from './json-shape.check';

describe('findShapeProblem', () => {
  it('finds nothing in an ordinary body, even with keys that only look reserved', () => {
    expect(
      findShapeProblem({
        contents: [{ parts: [{ text: 'x' }] }],
        prototype: 1,
        constructorName: 'x',
        list: ['constructor'],
      }),
    ).toBeUndefined();
  });

  it.each([
    [
      'constructor',
      { tools: [{ parameters: { properties: { constructor: {} } } }] },
      'tools[0].parameters.properties.constructor',
    ],
    [
      '__proto__',
      JSON.parse('{"contents":[{"parts":[{"functionCall":{"args":{"__proto__":{"x":1}}}}]}]}'),
      'contents[0].parts[0].functionCall.args.__proto__',
    ],
  ])('finds the reserved key %s at any depth, with the wire path', (key, body: unknown, path) => {
    expect(findShapeProblem(body)).toEqual({
      field: path,
      message: `${path} uses the reserved key '${key}', which the gateway cannot accept anywhere in a body`,
    });
  });

  it('refuses 10,000 levels of nesting without overflowing the stack', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 10_000; level++) deep = [deep];
    expect(findShapeProblem({ a: deep })).toEqual({
      field: `a${'[0]'.repeat(63)}`,
      message: `a${'[0]'.repeat(63)} must not be nested more than 64 levels deep`,
    });
  });

  it('refuses a list or an object over the entry limit', () => {
    expect(findShapeProblem({ messages: new Array(10_001).fill({}) })?.message).toBe(
      'messages must have at most 10000 items',
    );
    const fields = Object.fromEntries(Array.from({ length: 10_001 }, (_, index) => [`k${index}`, index]));
    expect(findShapeProblem({ args: fields })?.message).toBe('args must have at most 10000 fields');
  });

  it('refuses a body with more values than the limit, however they are spread', () => {
    const row = new Array(10_000).fill(0);
    expect(findShapeProblem({ rows: new Array(20).fill(row) })).toEqual({
      field: '(body)',
      message: '(body) must hold at most 200000 JSON values',
    });
  });
});
