import { newRequestId, requestIdFrom } from './request-id.util';

/** A per-process random prefix (16 characters) and a base-36 counter. */
const GENERATED = /^req_[A-Za-z0-9_-]{16}[0-9a-z]+$/;

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
});
