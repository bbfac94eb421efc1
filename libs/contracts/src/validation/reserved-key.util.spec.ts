import { findReservedKeyPath, reservedKeyProblem } from './reserved-key.util';

describe('findReservedKeyPath', () => {
  it('finds a reserved key at any depth, with the wire path', () => {
    const body = JSON.parse(
      '{"contents":[{"parts":[{"text":"x"}]},{"parts":[{"functionCall":{"name":"f","args":{"a":{"constructor":1}}}}]}]}',
    ) as unknown;
    expect(findReservedKeyPath(body)).toBe('contents[1].parts[0].functionCall.args.a.constructor');
  });

  it('leaves __proto__ to class-transformer, which skips it', () => {
    expect(findReservedKeyPath(JSON.parse('{"tools":[{"__proto__":{"x":1}}]}'))).toBeUndefined();
  });

  it('finds nothing in an ordinary body, even with keys that only look related', () => {
    expect(
      findReservedKeyPath({ prototype: 1, constructorName: 'x', list: ['constructor'] }),
    ).toBeUndefined();
  });
});

describe('reservedKeyProblem', () => {
  it('names the path and the key', () => {
    expect(reservedKeyProblem('tools[0].parameters.constructor')).toEqual({
      field: 'tools[0].parameters.constructor',
      message:
        "tools[0].parameters.constructor uses the reserved key 'constructor', which the gateway cannot accept anywhere in a body",
    });
  });
});
