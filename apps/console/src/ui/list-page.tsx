import type { FormEvent, ReactNode } from 'react';
import { ErrorBanner } from './error-banner';
import { Pager, type PagerProps } from './pager';

/** The paging of a list, as the Pager shows it (see hooks/list-paging.ts for the two kinds). */
export type ListPaging = Omit<PagerProps, 'label'>;

interface ListPageProps<Row> {
  /** What the list holds ("Logs"): names its pager, and its table unless `caption` says more. */
  label: string;
  caption?: string;
  /** A FilterBar, a Toolbar, or nothing. */
  filters?: ReactNode;
  /** Shown between the error and the table: the details of a selected row. */
  detail?: ReactNode;
  error?: unknown;
  /** Shown while the first page loads. */
  loadingText?: string;
  loading?: boolean;
  /** This page's rows; undefined while none has loaded. */
  rows: readonly Row[] | undefined;
  emptyText: string;
  /** The header cells (<th scope="col">) of the table. */
  columns: ReactNode;
  renderRow: (row: Row) => ReactNode;
  paging: ListPaging;
}

/**
 * The body of every list page: its filters, the API's refusal, a loading or empty message, one table
 * with a caption for screen readers, and the pager.
 */
export function ListPage<Row>(props: ListPageProps<Row>) {
  const { label, caption = label, rows } = props;
  return (
    <>
      {props.filters}
      <ErrorBanner error={props.error} />
      {props.detail}
      {props.loading && props.loadingText !== undefined && <p className="muted">{props.loadingText}</p>}
      {rows?.length === 0 && <p className="muted">{props.emptyText}</p>}
      {rows !== undefined && rows.length > 0 && (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">{caption}</caption>
            <thead>
              <tr>{props.columns}</tr>
            </thead>
            <tbody>{rows.map(props.renderRow)}</tbody>
          </table>
        </div>
      )}
      <Pager label={label} {...props.paging} />
    </>
  );
}

interface FilterBarProps {
  /** The form's accessible name ("Log filters"). */
  label: string;
  onApply: () => void;
  onClear: () => void;
  children: ReactNode;
}

/** Filters applied together: the fields, then "Apply filters" (or Enter) and "Clear". */
export function FilterBar({ label, onApply, onClear, children }: FilterBarProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply();
  };
  return (
    <form className="filters" onSubmit={submit} noValidate aria-label={label}>
      {children}
      <div className="filters__actions">
        <button type="submit" className="button button--primary">
          Apply filters
        </button>
        <button type="button" className="button" onClick={onClear}>
          Clear
        </button>
      </div>
    </form>
  );
}

/** Filters applied as they are typed or chosen (a list the API answers whole). */
export function Toolbar({ children }: { children: ReactNode }) {
  return <div className="toolbar">{children}</div>;
}
