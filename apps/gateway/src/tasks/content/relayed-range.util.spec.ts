import { rangeToRelay } from './relayed-range.util';

describe('rangeToRelay', () => {
  it.each([
    ['bytes=0-99', 'bytes=0-99'],
    [' bytes=100- ', 'bytes=100-'],
    ['bytes=-500', 'bytes=-500'],
  ])('passes one byte range on: %p', (header, relayed) => {
    expect(rangeToRelay(header)).toBe(relayed);
  });

  it.each([undefined, 'bytes=0-1,5-6', 'items=0-5', 'bytes=9-2', 'bytes=0-1\r\nx: y'])(
    'passes nothing for %p (the whole body is served)',
    (header) => {
      expect(rangeToRelay(header)).toBeUndefined();
    },
  );
});
