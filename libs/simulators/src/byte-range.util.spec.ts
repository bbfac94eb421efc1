import { selectRange } from './byte-range.util';

describe('selectRange', () => {
  it.each([
    ['bytes=0-99', { kind: 'part', start: 0, end: 99 }],
    ['bytes=900-', { kind: 'part', start: 900, end: 999 }],
    ['bytes=990-2000', { kind: 'part', start: 990, end: 999 }],
    ['bytes=-10', { kind: 'part', start: 990, end: 999 }],
    ['bytes=-5000', { kind: 'part', start: 0, end: 999 }],
    ['bytes=1000-', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=5-1', { kind: 'whole' }],
    ['bytes=0-1,5-9', { kind: 'whole' }],
    ['items=0-1', { kind: 'whole' }],
    ['bytes=-', { kind: 'whole' }],
  ])('reads %s against 1000 bytes', (header, expected) => {
    expect(selectRange(header, 1000)).toEqual(expected);
  });

  it('serves the whole body without a header', () => {
    expect(selectRange(undefined, 10)).toEqual({ kind: 'whole' });
  });
});
