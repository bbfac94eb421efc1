import type { ListPaging } from '../ui/list-page';
import type { useClientPages } from './use-client-pages';
import type { useCursorPages } from './use-cursor-pages';

/** The pager of a cursor-paged list: "Next" while the API gave a next cursor. */
export function cursorPaging(
  paging: ReturnType<typeof useCursorPages>,
  nextCursor: string | null | undefined,
): ListPaging {
  return {
    page: paging.pageNumber,
    hasPrevious: paging.pageNumber > 1,
    hasNext: Boolean(nextCursor),
    onPrevious: paging.previous,
    onNext: () => {
      if (nextCursor) paging.next(nextCursor);
    },
  };
}

/** The pager of a list sliced in the browser, with its page count. */
export function clientPaging(pages: ReturnType<typeof useClientPages>): ListPaging {
  return {
    page: pages.page,
    pageCount: pages.pageCount,
    hasPrevious: pages.page > 1,
    hasNext: pages.page < pages.pageCount,
    onPrevious: () => pages.setPage(pages.page - 1),
    onNext: () => pages.setPage(pages.page + 1),
  };
}
