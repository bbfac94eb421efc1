import { UnsatisfiableRangeError, type ByteRange } from './object-store';

/** A range the caller built wrongly (the HTTP layer drops invalid Range headers before asking). */
export function assertByteRange(range: ByteRange): void {
  const endValid = range.end === undefined || (Number.isSafeInteger(range.end) && range.end >= range.start);
  if (!Number.isSafeInteger(range.start) || range.start < 0 || !endValid) {
    throw new RangeError(`invalid byte range ${range.start}-${range.end ?? ''}`);
  }
}

/** The bytes of a `size`-byte object that `range` covers, with the end clamped as HTTP does. */
export function resolveByteRange(range: ByteRange, size: number): Required<ByteRange> {
  assertByteRange(range);
  if (range.start >= size) throw new UnsatisfiableRangeError(size);
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}
