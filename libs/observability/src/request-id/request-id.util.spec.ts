import { newRequestId, requestIdFrom } from './request-id.util';

/** The time in base 36 (8 characters) and 96 random bits in base64url (16 characters). */
const GENERATED = /^req_[0-9a-z]{8}[A-Za-z0-9_-]{16}$/;

describe('requestIdFrom', () => {
  it.each(['abc-123', 'trace.7f_2A', 'x'.repeat(128), '0'])('keeps the sane incoming id %s', (incoming) => {
    expect(requestIdFrom(incoming)).toBe(incoming);
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['too long', 'x'.repeat(129)],
    ['with spaces', 'a b'],
    ['with a line break', 'abc\n{"level":60}'],
    ['with quotes', 'abc"def'],
    ['non-ascii', 'idé'],
  ])('generates a new id when the incoming one is %s', (_case, incoming) => {
    expect(requestIdFrom(incoming)).toMatch(GENERATED);
  });

  it('never hands out the same id twice', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => requestIdFrom(undefined)));
    expect(ids.size).toBe(10_000);
  });

  it('takes the first value of a repeated header', () => {
    expect(requestIdFrom(['first-id', 'second-id'])).toBe('first-id');
    expect(requestIdFrom(['bad id', 'second-id'])).toMatch(GENERATED);
  });

  it('generates distinct ids', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newRequestId()));

    expect(ids.size).toBe(1000);
  });

  it('generates short ids: req_ and 24 characters', () => {
    // More ids than one draw of random bytes serves, so that a refill is crossed too.
    for (let count = 0; count < 300; count += 1) expect(newRequestId()).toMatch(GENERATED);
  });

  it('generates ids that tell a client nothing of the traffic between its requests', () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId());
    const randomParts = ids.map((id) => id.slice(-16));
    const pairs = randomParts.slice(1).map((part, index) => [randomParts[index], part] as const);
    // A counter makes consecutive ids alike but for their last characters, and mostly increasing.
    const alikeCharacters = pairs.map(
      ([before, after]) => [...before].filter((character, position) => character === after[position]).length,
    );
    const increasing = pairs.filter(([before, after]) => before < after).length;
    expect(Math.max(...alikeCharacters)).toBeLessThan(8);
    expect(increasing / pairs.length).toBeGreaterThan(0.4);
    expect(increasing / pairs.length).toBeLessThan(0.6);
  });
});
