import type { ReactNode } from 'react';

export function PageHeader({ title, intro, actions }: { title: string; intro: string; actions?: ReactNode }) {
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        <p className="page-header__intro">{intro}</p>
      </div>
      {actions !== undefined && <div className="page-header__actions">{actions}</div>}
    </header>
  );
}

/** A bordered section of a page with its own heading. */
export function Panel({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <section className="panel" id={id} aria-labelledby={id ? `${id}-title` : undefined}>
      <h2 id={id ? `${id}-title` : undefined}>{title}</h2>
      {children}
    </section>
  );
}
