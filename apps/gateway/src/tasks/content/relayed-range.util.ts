import { parseRangeHeader } from '../../platform/stored-files/range-header.util';

/**
 * The client's `Range` header as the upstream is asked it: one byte range (`start-end`, `start-`,
 * `-suffix`), trimmed. Anything else (several ranges, another unit, a backwards range) is not passed
 * on, so the whole body is served, as RFC 9110 allows; the upstream decides what it can satisfy.
 */
export function rangeToRelay(header: string | undefined): string | undefined {
  return header !== undefined && parseRangeHeader(header) !== undefined ? header.trim() : undefined;
}
