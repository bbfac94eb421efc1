import { describeProblems, FieldProblem, validateBody } from './validate-body.util';
import { LeafDto, TreeDto } from './testing/tree-dtos.fixture';

function problemsOf(body: unknown, refuseUnknownFields = false): FieldProblem[] {
  const result = validateBody(TreeDto, body, { refuseUnknownFields });
  if (result.ok) throw new Error('expected the body to be refused');
  return result.problems;
}

describe('validateBody', () => {
  it('returns an instance of the DTO class with nested instances', () => {
    const result = validateBody(TreeDto, { name: 'oak', leaves: [{ count: 1 }, { count: 2 }] });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toBeInstanceOf(TreeDto);
    expect(result.value.leaves?.[1]).toBeInstanceOf(LeafDto);
  });

  it('does not touch the plain object it was given', () => {
    const plain = { name: 'oak', leaves: [{ count: 1 }, { count: 2 }] };
    const copy = structuredClone(plain);
    validateBody(TreeDto, plain);
    expect(plain).toEqual(copy);
  });

  it('writes paths with array indexes, like the wire', () => {
    expect(problemsOf({ name: 'oak', leaves: [{ count: 1 }, { count: -1 }] })).toEqual([
      { field: 'leaves[1].count', message: 'leaves[1].count must be at least 0' },
    ]);
  });

  it('reports a rule about the whole body at (body)', () => {
    expect(problemsOf({ name: 'oak', leaves: [{ count: 1 }] })).toEqual([
      { field: '(body)', message: '(body) must have an even number of leaves' },
    ]);
  });

  it('rewords class-validator nested-object messages', () => {
    expect(problemsOf({ name: 'oak', leaves: [5, null] })).toEqual([
      { field: 'leaves[0]', message: 'leaves[0] must be an object' },
      { field: 'leaves[1]', message: 'leaves[1] must be an object' },
    ]);
  });

  it('does not coerce types', () => {
    expect(problemsOf({ name: 'oak', root: { count: '3' } })).toEqual([
      { field: 'root.count', message: 'root.count must be an integer' },
    ]);
  });

  it('refuses unknown fields at every depth only when asked', () => {
    const body = { name: 'oak', colour: 'green', root: { count: 1, weight: 2 } };
    expect(problemsOf(body, true)).toEqual([
      { field: 'colour', message: 'colour is not a known field' },
      { field: 'root.weight', message: 'root.weight is not a known field' },
    ]);
    const lenient = validateBody(TreeDto, body);
    expect(lenient.ok && lenient.value).toMatchObject(body);
  });

  it('refuses fields named like Object methods when asked, which class-transformer would drop unseen', () => {
    expect(problemsOf({ name: 'oak', root: { count: 1, toString: 'x' } }, true)).toEqual([
      { field: 'root.toString', message: 'root.toString is not a known field' },
    ]);
    expect(validateBody(TreeDto, { name: 'oak', hasOwnProperty: 1 }).ok).toBe(true);
  });

  it('refuses a __proto__ or constructor key at any depth, before anything copies it', () => {
    expect(problemsOf(JSON.parse('{"name":"oak","__proto__":{"polluted":true}}'))).toEqual([
      {
        field: '__proto__',
        message:
          "__proto__ uses the reserved key '__proto__', which the gateway cannot accept anywhere in a body",
      },
    ]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(problemsOf({ name: 'oak', leaves: [{ count: 1, constructor: 2 }] })).toEqual([
      expect.objectContaining({ field: 'leaves[0].constructor' }),
    ]);
  });

  it('refuses NUL and unpaired surrogates in any string or key only when asked, naming where', () => {
    const unstorable = (body: unknown) => {
      const result = validateBody(TreeDto, body, { refuseUnstorableText: true });
      return result.ok ? [] : result.problems;
    };
    const problem = 'must not contain NUL (U+0000) or unpaired surrogate characters';
    expect(unstorable({ name: 'o\u0000ak' })).toEqual([{ field: 'name', message: `name ${problem}` }]);
    expect(unstorable({ name: 'oak', notes: { list: ['fine', 'x\ud800'] } })).toEqual([
      { field: 'notes.list[1]', message: `notes.list[1] ${problem}` },
    ]);
    expect(unstorable({ name: 'oak', extra: { 'a\u0000': 1 } })).toEqual([
      { field: 'extra["a\\u0000"]', message: `extra["a\\u0000"] ${problem}` },
    ]);
    expect(validateBody(TreeDto, { name: 'o\u0000ak' }).ok).toBe(true);
  });

  it('refuses nesting beyond the depth limit with its path, instead of overflowing the stack', () => {
    let deep: unknown = {};
    for (let level = 0; level < 10_000; level++) deep = { root: deep };
    expect(problemsOf({ name: 'oak', extra: deep })).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/^extra(\.root)+ must not be nested more than 64 levels deep$/),
      }),
    ]);
  });
});

describe('describeProblems', () => {
  const problem = (field: string): FieldProblem => ({ field, message: `${field} must be a number` });

  it('names every field in one sentence', () => {
    expect(describeProblems([problem('a'), problem('b[0].c')])).toBe(
      'Invalid request: a must be a number; b[0].c must be a number.',
    );
  });

  it('summarises beyond twenty problems', () => {
    const problems = Array.from({ length: 23 }, (_unused, index) => problem(`f${index}`));
    const sentence = describeProblems(problems);
    expect(sentence).toContain('f19 must be a number; and 3 more problems.');
    expect(sentence).not.toContain('f20');
  });

  it('still says something without problems', () => {
    expect(describeProblems([])).toBe('The request is invalid.');
  });
});
