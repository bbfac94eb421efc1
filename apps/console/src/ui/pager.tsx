export interface PagerProps {
  label: string;
  page: number;
  pageCount?: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}

/** Previous / next for a list, cursor-paged (no page count) or sliced in the browser. */
export function Pager({ label, page, pageCount, hasPrevious, hasNext, onPrevious, onNext }: PagerProps) {
  if (!hasPrevious && !hasNext) return null;
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" className="button" onClick={onPrevious} disabled={!hasPrevious}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page}
        {pageCount !== undefined ? ` of ${pageCount}` : ''}
      </span>
      <button type="button" className="button" onClick={onNext} disabled={!hasNext}>
        Next
      </button>
    </nav>
  );
}
