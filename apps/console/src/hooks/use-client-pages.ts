import { useState } from 'react';

export const CLIENT_PAGE_SIZE = 20;

/** Paging of a list the API answers whole (channels, keys, prices): slices of CLIENT_PAGE_SIZE. */
export function useClientPages<T>(items: readonly T[], pageSize = CLIENT_PAGE_SIZE) {
  const [requested, setPage] = useState(1);
  const pageCount = Math.max(1, Math.ceil(items.length / pageSize));
  const page = Math.min(requested, pageCount);
  const visible = items.slice((page - 1) * pageSize, page * pageSize);
  return { visible, page, pageCount, setPage };
}
