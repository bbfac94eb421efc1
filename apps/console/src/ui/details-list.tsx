import type { ReactNode } from 'react';

/** Label–value pairs of one record (a log row, a task, an account). */
export function DetailsList({ entries }: { entries: [string, ReactNode][] }) {
  return (
    <dl className="details">
      {entries.map(([label, value]) => (
        <div key={label} className="details__row">
          <dt>{label}</dt>
          <dd>{value === null || value === undefined || value === '' ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}
