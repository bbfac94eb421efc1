import { Max } from 'class-validator';
import { checkBody } from './check-body.util';
import { MicrosField } from './micros-field.decorator';
import { NestedField } from './nested-field.decorator';
import { ValidateObjectRule } from './rule.decorator';
import { IntegerField, StringField } from './scalar-field.decorator';
import { validateBody } from './validate-body.util';
import { TreeDto } from './testing/tree-dtos.fixture';

class TallTreeDto extends TreeDto {
  @IntegerField({ description: 'Height in metres.', min: 1 })
  height: number;
}

/** Redeclares `name` as optional and brings its own whole-object rule, replacing the parent's. */
@ValidateObjectRule('noRoot', (tree) => (tree['root'] !== undefined ? '.root is not grown yet' : undefined))
class SaplingDto extends TreeDto {
  @StringField({ description: 'A name, if given yet.', optional: true })
  declare name: string;
}

class DefaultedDto {
  @IntegerField({ description: 'A weight.', optional: true, default: 1, min: 1 })
  weight: number = 1;
}

class PriceDto {
  @MicrosField({ description: 'A price.' })
  amount: string;
}

class CappedDto {
  @Max(3)
  @IntegerField({ description: 'A count.' })
  count: number;
}

class LabelledDto {
  @StringField({ description: 'A name.' })
  name: string;

  get label(): string {
    return `#${this.name}`;
  }
}

class BareDto {}

class BoxDto {
  @NestedField(() => CappedDto, { description: 'A capped count.' })
  capped: CappedDto;
}

/** What checkBody must answer: exactly what validateBody answers, without the value. */
function expectSameAnswer(dtoClass: new () => object, body: unknown): void {
  const validation = validateBody(dtoClass, body);
  expect(checkBody(dtoClass, body)).toEqual(
    validation.ok ? { ok: true } : { ok: false, problems: validation.problems },
  );
}

describe('checkBody by the plain rules alone', () => {
  it('accepts a valid body by its rules alone, ignoring unknown fields', () => {
    const body = { name: 'oak', leaves: [{ count: 1 }, { count: 2 }], root: { count: 0 }, colour: 'green' };
    expect(checkBody(TreeDto, body)).toEqual({ ok: true });
  });

  it.each([[{ name: 'oak', root: null }], [{ name: 'oak', root: undefined }]])(
    'skips a property its condition skips, nested object included: %j',
    (body) => {
      expect(checkBody(TreeDto, body)).toEqual({ ok: true });
    },
  );

  it.each([
    ['breaks a property rule', { name: '' }],
    ['breaks a rule of a list item', { name: 'oak', leaves: [{ count: 1 }, { count: -1 }] }],
    ['breaks a rule of a nested object', { name: 'oak', root: { count: '3' } }],
    ['breaks a whole-object rule', { name: 'oak', leaves: [{ count: 1 }] }],
    ['leaves out a required field', { leaves: [] }],
  ])('refuses a body that %s, as validateBody does', (_rule, body) => {
    expect(checkBody(TreeDto, body).ok).toBe(false);
    expectSameAnswer(TreeDto, body);
  });

  it('applies the rules of a parent class to its subclass', () => {
    expect(checkBody(TallTreeDto, { name: 'oak', height: 3 })).toEqual({ ok: true });
    expectSameAnswer(TallTreeDto, { name: '', height: 3 });
    expectSameAnswer(TallTreeDto, { name: 'oak', leaves: [{ count: 1 }], height: 3 });
    expect(checkBody(TallTreeDto, { name: '', height: 3 }).ok).toBe(false);
  });

  it('lets a subclass replace the rules it redeclares, like class-validator', () => {
    expect(checkBody(SaplingDto, { leaves: [{ count: 1 }] })).toEqual({ ok: true });
    expect(checkBody(SaplingDto, { root: { count: 1 } }).ok).toBe(false);
    expectSameAnswer(SaplingDto, { root: { count: 1 } });
  });

  describe('cannot tell, so leaves the answer to validateBody', () => {
    it.each([
      ['a property initializer puts a default on the instance', DefaultedDto, { weight: 2 }],
      ['a transform changes the value before validation', PriceDto, { amount: 1500000 }],
      ['a validation decorator the rules do not know of', CappedDto, { count: 2 }],
      ['an accessor on the class', LabelledDto, { name: 'oak' }],
      ['the class has no rules', BareDto, { name: 'oak' }],
      ['a nested class cannot be told', BoxDto, { capped: { count: 2 } }],
    ])('%s', (_reason, dtoClass: new () => object, body: unknown) => {
      expectSameAnswer(dtoClass, body);
    });

    it('so a body valid only after the transform is still accepted', () => {
      expect(checkBody(PriceDto, { amount: 1500000 })).toEqual({ ok: true });
    });

    it('so a decorator the rules do not know of still refuses', () => {
      expect(checkBody(CappedDto, { count: 5 })).toMatchObject({ ok: false, problems: [{ field: 'count' }] });
    });
  });
});

describe('checkBody', () => {
  it.each([
    [TreeDto, { name: 'oak', leaves: [{ count: 1 }, { count: 2 }] }],
    [TreeDto, { name: 'oak', leaves: [{ count: 1 }, { count: -1 }], root: [] }],
    [TreeDto, { name: 'oak', leaves: [{ count: 1 }] }],
    [TreeDto, []],
    [TreeDto, 'oak'],
    [TallTreeDto, { name: 'oak' }],
    [SaplingDto, { name: 5, root: null }],
    [TreeDto, { name: 'oak', leaves: [5, null] }],
    [TreeDto, { name: 'oak', leaves: [[{ count: 1 }], { count: 'x' }] }],
    [TreeDto, { name: 'oak', root: Object.assign(Object.create(null) as object, { count: -1 }) }],
    [TreeDto, { name: 'oak', root: { count: 1 }, toString: 'a field named like an Object method' }],
    [TreeDto, JSON.parse('{"name":"oak","__proto__":{"count":1}}')],
    [TreeDto, { name: 'oak', root: { count: 1, constructor: 'x' } }],
    [BoxDto, { capped: { count: 5 } }],
    [BoxDto, { capped: { count: 2 } }],
  ])('answers like validateBody for %p %j', (dtoClass: new () => object, body: unknown) => {
    expectSameAnswer(dtoClass, body);
  });

  it('reports every problem of an invalid body, in order, like validateBody', () => {
    const body = {
      name: '',
      leaves: [{ count: -1 }, { count: 'x' }, 7, { count: 2 }],
      root: { count: 1.5 },
    };
    expectSameAnswer(TreeDto, body);
    expect(checkBody(TreeDto, body)).toEqual({
      ok: false,
      problems: [
        { field: 'name', message: 'name must not be empty' },
        { field: 'leaves[0].count', message: 'leaves[0].count must be at least 0' },
        { field: 'leaves[1].count', message: 'leaves[1].count must be an integer' },
        { field: 'leaves[2]', message: 'leaves[2] must be an object' },
        { field: 'root.count', message: 'root.count must be an integer' },
      ],
    });
  });

  it('refuses a list over the item limit before reading any item', () => {
    const leaves = Array.from({ length: 10_001 }, () => ({ count: -1 }));
    expect(checkBody(TreeDto, { name: 'oak', leaves })).toEqual({
      ok: false,
      problems: [{ field: 'leaves', message: 'leaves must have at most 10000 items' }],
    });
  });

  it('refuses 10,000 levels of nesting with a 400-style problem, not a stack overflow', () => {
    let deep: unknown = { count: 1 };
    for (let level = 0; level < 10_000; level++) deep = { inner: deep };
    const answer = checkBody(TreeDto, { name: 'oak', root: { count: 1, extra: deep } });
    expect(answer).toEqual({
      ok: false,
      problems: [
        expect.objectContaining({
          message: expect.stringMatching(
            /^root\.extra(\.inner)+ must not be nested more than 64 levels deep$/,
          ),
        }),
      ],
    });
  });
});
