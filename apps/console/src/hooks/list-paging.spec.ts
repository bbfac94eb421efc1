import { clientPaging, cursorPaging } from './list-paging';

describe('list paging', () => {
  it('pages by cursor: Next only with a next cursor, Previous after the first page', () => {
    const moves: string[] = [];
    const paging = {
      cursor: 'c1',
      pageNumber: 2,
      next: (cursor: string) => moves.push(`next ${cursor}`),
      previous: () => moves.push('previous'),
      reset: () => moves.push('reset'),
    };
    const pager = cursorPaging(paging, 'c2');
    expect(pager).toMatchObject({ page: 2, hasPrevious: true, hasNext: true });
    pager.onNext();
    pager.onPrevious();
    expect(moves).toEqual(['next c2', 'previous']);

    const last = cursorPaging({ ...paging, pageNumber: 1 }, null);
    expect(last).toMatchObject({ page: 1, hasPrevious: false, hasNext: false });
    last.onNext();
    expect(moves).toEqual(['next c2', 'previous']);
  });

  it('pages a list sliced in the browser, with its page count', () => {
    const pages: number[] = [];
    const pager = clientPaging({
      visible: [],
      page: 2,
      pageCount: 3,
      setPage: (page) => pages.push(Number(page)),
    });
    expect(pager).toMatchObject({ page: 2, pageCount: 3, hasPrevious: true, hasNext: true });
    pager.onNext();
    pager.onPrevious();
    expect(pages).toEqual([3, 1]);
    expect(clientPaging({ visible: [], page: 3, pageCount: 3, setPage: () => undefined }).hasNext).toBe(
      false,
    );
  });
});
