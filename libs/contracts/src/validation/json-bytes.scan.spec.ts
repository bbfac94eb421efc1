import { BodyShapeLimits } from './body-limits.constants';
import { findJsonBytesShapeProblem } from './json-bytes.scan';
import { findShapeProblem } from './json-shape.check';

const small: BodyShapeLimits = { maxDepth: 4, maxEntries: 3, maxValues: 20 };

const bytesOf = (text: string) => Buffer.from(text, 'utf8');

describe('findJsonBytesShapeProblem', () => {
  it('refuses millions of items after reading the first ones past the limit, naming the list', () => {
    const body = bytesOf(`{"contents":[${new Array(1_000_000).fill('{}').join(',')}]}`);
    expect(findJsonBytesShapeProblem(body)).toEqual({
      field: 'contents',
      message: 'contents must have at most 10000 items',
    });
  });

  it('refuses deep nesting with the path of the first level too deep', () => {
    const body = bytesOf(`{"a":[{"b":${'['.repeat(10_000)}${']'.repeat(10_000)}}]}`);
    const problem = findJsonBytesShapeProblem(body);
    expect(problem?.field).toBe(`a[0].b${'[0]'.repeat(61)}`);
    expect(problem?.message).toMatch(/must not be nested more than 64 levels deep$/);
  });

  it.each([
    ['an ordinary body', '{"a":[1,{"b":"x"}],"c":null}', undefined],
    ['items over the limit', '{"a":[1,2,3,4]}', 'a must have at most 3 items'],
    ['fields over the limit', '{"a":{"w":1,"x":2,"y":3,"z":4}}', 'a must have at most 3 fields'],
    ['nesting over the limit', '{"a":[[[{}]]]}', 'a[0][0][0] must not be nested more than 4 levels deep'],
    [
      'too many values',
      `{"a":[[1,2,3],[1,2,3],[1,2,3]],"b":[[1,2,3],[1,2,3]]}`,
      '(body) must hold at most 20 JSON values',
    ],
    ['a body that is a long list', '[1,2,3,4]', '(body) must have at most 3 items'],
    [
      'keys with escapes and quotes',
      '{"a\\"b":{"\\u00e9t\\u00e9":[1,2,3,4]}}',
      'a"b.été must have at most 3 items',
    ],
    [
      'strings with escaped quotes and brackets',
      '{"a":"[[[[\\"]]]]\\\\","b":[1,2,3,4]}',
      'b must have at most 3 items',
    ],
    ['multi-byte text', '{"é":["日本","語","😀","x"]}', 'é must have at most 3 items'],
    [
      'a reserved key',
      '{"__proto__":{"a":1}}',
      "__proto__ uses the reserved key '__proto__', which the gateway cannot accept anywhere in a body",
    ],
    [
      'a reserved key deep inside',
      '{"a":[{"b":1},{"constructor":2}]}',
      "a[1].constructor uses the reserved key 'constructor', which the gateway cannot accept anywhere in a body",
    ],
    [
      'a reserved key written with escapes',
      '{"x":{"\\u005f_proto\\u005f\\u005f":1}}',
      "x.__proto__ uses the reserved key '__proto__', which the gateway cannot accept anywhere in a body",
    ],
    [
      'keys that only look like reserved ones',
      '{"__proto_x":1,"constructors":"__proto__","prototype":2}',
      undefined,
    ],
  ])('finds the same problem as the walk of the parsed value in %s', (_case, text, message) => {
    const fromBytes = findJsonBytesShapeProblem(bytesOf(text), small);
    expect(fromBytes?.message).toBe(message);
    if (message !== undefined) expect(fromBytes).toEqual(findShapeProblem(JSON.parse(text), small));
  });

  it.each([
    ['truncated JSON', '{"a":[1,2'],
    ['an unterminated string', '{"a":"xyz'],
    ['stray closers', ']]]}}}'],
    ['text that is not JSON', 'hello world'],
    ['nothing', ''],
  ])('lets malformed input within the limits through to JSON.parse: %s', (_case, text) => {
    expect(findJsonBytesShapeProblem(bytesOf(text), small)).toBeUndefined();
  });

  it('shows the start of a long key, and no stale key for a container malformed JSON puts in an object', () => {
    const longKey = 'k'.repeat(1_000);
    expect(findJsonBytesShapeProblem(bytesOf(`{"${longKey}":[1,2,3,4]}`), small)?.field).toBe(
      `${'k'.repeat(64)}…`,
    );
    expect(findJsonBytesShapeProblem(bytesOf('{"a":{"x":1},"b":{[1,2,3,4]}}'), small)?.field).toBe('b.?');
  });

  it('reads a string of any length, escapes included, as one value', () => {
    const long = `{"data":"${'A'.repeat(100_000)}\\"${'B'.repeat(100)}\\\\","after":[1,2,3,4]}`;
    expect(findJsonBytesShapeProblem(bytesOf(long), small)?.field).toBe('after');
  });
});
