import { useCallback, useState } from 'react';

/**
 * Cursor paging as the admin lists do it (nextCursor of one page is the cursor of the next): a stack
 * of the cursors that led here, so that "Previous" is a step back without a cursor the API never gave.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const next = useCallback((nextCursor: string) => setCursors((stack) => [...stack, nextCursor]), []);
  const previous = useCallback(
    () => setCursors((stack) => (stack.length > 1 ? stack.slice(0, -1) : stack)),
    [],
  );
  const reset = useCallback(() => setCursors([undefined]), []);
  return { cursor, pageNumber: cursors.length, next, previous, reset };
}
