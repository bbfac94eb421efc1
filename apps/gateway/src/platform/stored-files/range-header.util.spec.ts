import { parseRangeHeader } from './range-header.util';

describe('parseRangeHeader', () => {
  it.each([
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=100-', { start: 100 }],
    ['bytes=-500', { suffixLength: 500 }],
    [' bytes=5-5 ', { start: 5, end: 5 }],
  ])('reads %s', (header, range) => {
    expect(parseRangeHeader(header)).toEqual(range);
  });

  it.each([
    undefined,
    '',
    'bytes=',
    'bytes=-',
    'bytes=-0',
    'bytes=10-5',
    'bytes=0-1,5-6',
    'items=0-5',
    'bytes=a-b',
    'bytes=99999999999999999999-',
  ])('serves the whole file for %p', (header) => {
    expect(parseRangeHeader(header)).toBeUndefined();
  });
});
